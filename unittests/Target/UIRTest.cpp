//===- UIRTest.cpp - the .uir import/export C++ API ------------*- C++ -*-===//

#include "Uop/Target/UIR.h"
#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

struct UIRTest : ::testing::Test {
  UIRTest() {
    DialectRegistry registry;
    uop::registerUIRDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  OwningOpRef<ModuleOp> import(StringRef text, std::string &diags) {
    llvm::SourceMgr sm;
    sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "prog.uir"), SMLoc());
    ScopedDiagnosticHandler h(&ctx, [&](Diagnostic &d) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << d.getLocation() << ": " << d.str();
      diags += s + "\n";
      return success();
    });
    return uop::importUIR(sm, &ctx);
  }
  MLIRContext ctx;
};

// test_uir_roundtrip_and_syllabus_example through the C++ API.
TEST_F(UIRTest, SyllabusRoundTrip) {
  const char *src = "%0 = buffer 65536 : dtype=f32 slot=0\n"
                    "%1 = buffer 65536 : dtype=f32 slot=1\n"
                    "%2 = reshape %0, (256, 256, 1)\n"
                    "%3 = reshape %1, (256, 1, 256)\n"
                    "%4 = mul %2, %3\n"
                    "%5 = reduce %4 : op=add pop=1\n";
  std::string diags;
  OwningOpRef<ModuleOp> m = import(src, diags);
  ASSERT_TRUE(m) << diags;
  auto main = m->lookupSymbol<func::FuncOp>("main");
  ASSERT_TRUE(main);
  EXPECT_EQ(main.getResultTypes()[0], RankedTensorType::get({256, 256}, Float32Type::get(&ctx)));
  // The printer writes the sugar out (expand inserted, the seed's toposort
  // order), as the seed's to_uir does; printed programs are a fixed point.
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_TRUE(succeeded(uop::exportUIR(*m, os)));
  EXPECT_EQ(out, "%0 = buffer 65536 : dtype=f32 slot=0\n"
                 "%1 = reshape %0, (256, 256, 1)\n"
                 "%2 = expand %1, (256, 256, 256)\n"
                 "%3 = buffer 65536 : dtype=f32 slot=1\n"
                 "%4 = reshape %3, (256, 1, 256)\n"
                 "%5 = expand %4, (256, 256, 256)\n"
                 "%6 = mul %2, %5\n"
                 "%7 = reduce %6 : op=add pop=1\n");
  OwningOpRef<ModuleOp> again = import(out, diags);
  ASSERT_TRUE(again) << diags;
  std::string out2;
  llvm::raw_string_ostream os2(out2);
  ASSERT_TRUE(succeeded(uop::exportUIR(*again, os2)));
  EXPECT_EQ(out2, out);
}

TEST_F(UIRTest, ErrorsNameTheLine) {
  std::string diags;
  OwningOpRef<ModuleOp> m = import("%0 = const 1\n%1 = add %0, %9\n", diags);
  EXPECT_FALSE(m);
  EXPECT_NE(diags.find("prog.uir\":2:"), std::string::npos) << diags;
  EXPECT_NE(diags.find("undefined %9"), std::string::npos) << diags;
}

} // namespace
