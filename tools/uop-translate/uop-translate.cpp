//===- uop-translate.cpp - the uop translation driver ----------*- C++ -*-===//
//
// mlir-translate with uop's translations: `--import-uir`, `--export-uir`.
//
//===----------------------------------------------------------------------===//

#include "Uop/Target/CPU.h"
#include "Uop/Target/UIR.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::uop::registerUIRTranslations();
  mlir::uop::registerToLLVMIRTranslation();
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "uop translation driver\n"));
}
