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
configure_file(${PROJECT_SOURCE_DIR}/cmake/ufjit.pc.in
               ${PROJECT_BINARY_DIR}/ufjit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ufjit.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
