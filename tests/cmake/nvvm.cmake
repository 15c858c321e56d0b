# The CUDA code generator's tests (compiler/nvvm/): label `cuda`. They need
# no GPU; the parts needing the CUDA toolkit (libnvvm, libdevice, ptxas)
# print why they skip.
foreach(t test_nvvm_ptx test_nvvm_sim test_nvvm_libdevice test_nvvm_loops)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS cuda)
  endif()
endforeach()

add_test(NAME cli_ptx
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_ptx.sh
          $<TARGET_FILE:ufjit_cli> ${CMAKE_CURRENT_SOURCE_DIR}/kernels)
set_tests_properties(cli_ptx PROPERTIES LABELS cuda)
