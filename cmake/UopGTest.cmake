# Finds googletest: an installed package, else Debian's sources in
# /usr/src/googletest (libgtest-dev), built here. Defines GTest::gtest and
# GTest::gtest_main when found; nothing otherwise (the caller skips its tests).
if(NOT TARGET GTest::gtest)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND AND EXISTS /usr/src/googletest/CMakeLists.txt)
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory(/usr/src/googletest ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gtest_main ALIAS gtest_main)
  endif()
endif()
