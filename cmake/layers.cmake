# The layering of the library's folders, enforced by include paths: the
# sources of each area see, besides the public headers, only a view of the
# source tree (build/layers/AREA) holding links to the areas it may include
# -- itself, common/ and the ones listed below. An #include "x/..." of any
# other area fails to compile. ARCHITECTURE.md draws these arrows.
#
#   ndarray  -> common
#   targets  -> ndarray
#   compiler -> ndarray (dtypes)
#   ufunc    -> compiler, targets, ndarray          (the call machinery)
#   gufunc, reduce, njit, launch -> ufunc, compiler, targets, ndarray
#   interop  -> targets, ndarray                    (CAI, DLPack)
#   api      -> every area (the public objects: context, module, uf_call)
#   cli      -> the public API only (include/ufjit)
#
# Tests and benchmarks are white-box: they see the whole tree.
set(UF_LAYER_common "")
set(UF_LAYER_ndarray "")
set(UF_LAYER_targets "ndarray")
set(UF_LAYER_compiler "ndarray")
set(UF_LAYER_ufunc "compiler;targets;ndarray")
set(UF_LAYER_gufunc "ufunc;compiler;targets;ndarray")
set(UF_LAYER_reduce "ufunc;compiler;targets;ndarray")
set(UF_LAYER_njit "ufunc;compiler;targets;ndarray")
set(UF_LAYER_launch "ufunc;compiler;targets;ndarray")
set(UF_LAYER_interop "targets;ndarray")
set(UF_LAYER_api "gufunc;reduce;njit;launch;interop;ufunc;compiler;targets;ndarray")
set(UF_LAYER_cli "")
set(UF_LAYERS common ndarray targets compiler ufunc gufunc reduce njit launch
              interop api cli)

# The view directory of `area`, made (or remade) at configure time.
function(uf_layer_view area out)
  set(view ${PROJECT_BINARY_DIR}/layers/${area})
  file(REMOVE_RECURSE ${view})
  file(MAKE_DIRECTORY ${view})
  set(seen ${area})
  if(NOT area STREQUAL "cli")
    list(APPEND seen common)
  endif()
  list(APPEND seen ${UF_LAYER_${area}})
  list(REMOVE_DUPLICATES seen)
  foreach(dep ${seen})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${dep} ${view}/${dep} SYMBOLIC)
  endforeach()
  set(${out} ${view} PARENT_SCOPE)
endfunction()

# Gives every source file of the library its area's view.
function(uf_layer_sources)
  foreach(area ${UF_LAYERS})
    if(area STREQUAL "cli")
      continue()
    endif()
    uf_layer_view(${area} view)
    file(GLOB_RECURSE srcs CONFIGURE_DEPENDS
         ${PROJECT_SOURCE_DIR}/${area}/*.c ${PROJECT_SOURCE_DIR}/${area}/*.cpp)
    set_source_files_properties(${srcs} TARGET_DIRECTORY ufjit_objects
                                PROPERTIES INCLUDE_DIRECTORIES ${view})
  endforeach()
endfunction()
