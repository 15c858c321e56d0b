# The CUDA code generator's tests (compiler/nvvm/): label `cuda`. They need
# no GPU; the parts needing the CUDA toolkit (libnvvm, libdevice, ptxas)
# print why they skip.
foreach(t test_nvvm_ptx test_nvvm_sim)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS cuda)
  endif()
endforeach()
