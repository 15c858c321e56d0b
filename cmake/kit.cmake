# UFJIT_KIT=ON: the build scripts/gpu-kit.sh makes for the GPU kit, a folder
# of programs that runs on a machine with no LLVM and no source tree.
#  - LLVM is linked statically (UFJIT_STATIC_LLVM) and unused sections are
#    dropped; the shared libraries that remain (libstdc++, oneTBB, libgomp,
#    CMocka) are copied into the kit's lib/, found through $ORIGIN/../lib.
#  - Paths compiled into the programs (UF_TEST_DATA_DIR and the like) are
#    made relative: uf_kit_relocate() rewrites every target's definitions
#    that name the source tree to paths from the source root, and those that
#    name the build tree to paths under _build/, and those that name a
#    folder beside the repo (../shared/...) to _outside/. run.sh runs each
#    program from a scratch folder that links the kit's copy of the sources
#    and holds _build/, so the same relative paths resolve there.
if(NOT UFJIT_STATIC_LLVM)
  message(FATAL_ERROR "UFJIT_KIT needs UFJIT_STATIC_LLVM=ON")
endif()
set(CMAKE_BUILD_RPATH "\$ORIGIN/../lib")
# __FILE__ in assertion messages names the source tree as it is in the kit
add_compile_options(-ffunction-sections -fdata-sections
                    -ffile-prefix-map=${PROJECT_SOURCE_DIR}/=)
add_link_options(-Wl,--gc-sections)
# lld links a 50 MB static program in about a second, GNU ld in several
include(CheckLinkerFlag)
check_linker_flag(C -fuse-ld=lld UFJIT_HAVE_LLD)
if(UFJIT_HAVE_LLD)
  add_link_options(-fuse-ld=lld)
endif()

function(_uf_kit_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    _uf_kit_targets(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Called once every target exists. Writes kit-source-paths.txt: the source
# paths (relative) the programs were compiled to read.
function(uf_kit_relocate)
  set(src ${PROJECT_SOURCE_DIR})
  set(bin ${PROJECT_BINARY_DIR})
  _uf_kit_targets(${src} targets)
  get_filename_component(up ${src} DIRECTORY)
  set(paths "")
  set(outside "")
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
      continue()
    endif()
    get_target_property(defs ${t} COMPILE_DEFINITIONS)
    if(NOT defs)
      continue()
    endif()
    set(new "")
    foreach(d ${defs})
      if(d MATCHES "^([A-Za-z_0-9]+)=\"(.*)\"$")
        set(name ${CMAKE_MATCH_1})
        set(val "${CMAKE_MATCH_2}")
        if(IS_ABSOLUTE "${val}")
          cmake_path(NORMAL_PATH val)
          string(REGEX REPLACE "(.)/$" "\\1" val "${val}")
        endif()
        string(FIND "${val}/" "${bin}/" at_bin)
        string(FIND "${val}/" "${src}/" at_src)
        string(FIND "${val}/" "${up}/" at_up)
        # the build tree first: it may lie inside the source tree
        if(at_bin EQUAL 0)
          string(LENGTH "${bin}" n)
          string(SUBSTRING "${val}" ${n} -1 rest)
          set(d "${name}=\"_build${rest}\"")
        elseif(at_src EQUAL 0 AND val STREQUAL src)
          set(d "${name}=\".\"")
        elseif(at_src EQUAL 0)
          string(LENGTH "${src}/" n)
          string(SUBSTRING "${val}" ${n} -1 rest)
          set(d "${name}=\"${rest}\"")
          list(APPEND paths "${rest}")
        elseif(at_up EQUAL 0 AND EXISTS "${val}")
          # beside the repo (../shared/seeds): travels as _outside/...
          string(LENGTH "${up}/" n)
          string(SUBSTRING "${val}" ${n} -1 rest)
          set(d "${name}=\"_outside/${rest}\"")
          list(APPEND outside "${rest}")
        endif()
      endif()
      list(APPEND new "${d}")
    endforeach()
    set_property(TARGET ${t} PROPERTY COMPILE_DEFINITIONS "${new}")
  endforeach()
  list(REMOVE_DUPLICATES paths)
  string(REPLACE ";" "\n" paths "${paths}")
  file(WRITE ${bin}/kit-source-paths.txt "${paths}\n")
  list(REMOVE_DUPLICATES outside)
  string(REPLACE ";" "\n" outside "${outside}")
  file(WRITE ${bin}/kit-outside-paths.txt "${outside}\n")
endfunction()
