# README's lists of array members, constructors, reductions and NumPy
# functions are printed from the compiler's tables (tests/test_readme_lists.c
# checks them); `cmake --build build --target readme-lists` rewrites them
# in README.md after a table changed.
if(TEST test_readme_lists)
  add_custom_target(readme-lists
    COMMAND test_readme_lists --write ${PROJECT_SOURCE_DIR}/README.md
    DEPENDS test_readme_lists VERBATIM)
endif()
