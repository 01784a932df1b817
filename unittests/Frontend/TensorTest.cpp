#include "Uop/Frontend/Tensor.h"
#include "../Runtime/TestUtil.h"
#include "gtest/gtest.h"
using namespace uop;
TEST(Smoke, Add) {
  rt::test::TempDir dir;
  rt::test::ScopedEnv env("UOP_CACHE", dir.path().c_str());
  TensorContext ctx;
  Tensor a = Tensor::fromVector({1, 2, 3, 4, 5, 6}, {2, 3}, ctx);
  Tensor b = Tensor::fromVector({10, 20, 30}, {3}, ctx);
  Tensor c = (a + b).softmax(-1);
  auto txt = ctx.programText({c});
  ASSERT_TRUE(!!txt);
  llvm::errs() << *txt;
  auto v = c.toVector();
  ASSERT_TRUE(!!v) << llvm::toString(v.takeError());
  for (float x : *v) llvm::errs() << x << " ";
  llvm::errs() << "\n" << ctx.graphSize() << " ops\n";
}
