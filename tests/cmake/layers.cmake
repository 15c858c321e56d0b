# The include-path layering of the library (cmake/layers.cmake): every
# area sees the areas it may include and no other.
add_test(NAME layering
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/layering/check_layers.sh
          ${CMAKE_C_COMPILER} ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
          ${UFJIT_LLVM_INCLUDE_DIRS})
