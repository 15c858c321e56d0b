# Installs the libraries, headers, a CMake package (find_package(ufjit)) and
# a pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS ufjit ufjit_static EXPORT ufjitTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ufjit
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/ufjit/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ufjit)

set(UFJIT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ufjit)
install(EXPORT ufjitTargets NAMESPACE ufjit:: DESTINATION ${UFJIT_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ufjitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ufjitConfig.cmake INSTALL_DESTINATION ${UFJIT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ufjitConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ufjitConfig.cmake
              ${PROJECT_BINARY_DIR}/ufjitConfigVersion.cmake
        DESTINATION ${UFJIT_CMAKE_DIR})

# The .pc file finds its prefix from its own location, so an install tree
# moved elsewhere (or installed with --prefix) still works.
file(RELATIVE_PATH UFJIT_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
# Libs.private: what a static link (pkg-config --static) needs besides
# libufjit.a -- libraries found by absolute path stay paths, names become
# -l flags; the C++ runtime whenever a C++ file is in the library.
set(_uf_pc_private "")
set(_uf_pc_libs ${M_LIBRARY} ${UFJIT_LLVM_LIBRARIES} ${UFJIT_PARALLEL_LIBRARIES}
                ${CMAKE_DL_LIBS})
get_property(_uf_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if("CXX" IN_LIST _uf_languages)
  list(APPEND _uf_pc_libs stdc++)
endif()
list(REMOVE_DUPLICATES _uf_pc_libs)
foreach(lib IN LISTS _uf_pc_libs)
  if(IS_ABSOLUTE "${lib}")
    string(APPEND _uf_pc_private " ${lib}")
  elseif(lib MATCHES "^-")
    string(APPEND _uf_pc_private " ${lib}")
  elseif(lib)
    string(APPEND _uf_pc_private " -l${lib}")
  endif()
endforeach()
string(STRIP "${_uf_pc_private}" UFJIT_PC_LIBS_PRIVATE)
configure_file(${PROJECT_SOURCE_DIR}/cmake/ufjit.pc.in
               ${PROJECT_BINARY_DIR}/ufjit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ufjit.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
