# The WebAssembly build (docs/wasm.md): the same engine library, its games and
# bots and the JSON-lines protocol, compiled by Debian's emscripten (3.1.6)
# into web/dist/engine/engine.js + engine.wasm for the browser app's Web
# Worker. Configured by scripts/setup.sh:
#   emcmake cmake -S . -B build-wasm -G Ninja && ninja -C build-wasm
# Nothing here is needed natively: no server, CLI, tests, MPI, SQLite,
# Boost, Python, sodium or zstd.

# The header-only libraries come from the host's Debian packages
# (libfmt-dev, nlohmann-json3-dev). emscripten's toolchain file searches only
# its own sysroot, so a folder of links to just these two is put on the
# include path (never all of /usr/include: glibc's headers are not emscripten's).
find_path(BONEYARD_FMT_INCLUDE fmt/format-inl.h PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
find_path(BONEYARD_JSON_INCLUDE nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
set(BONEYARD_HOST_INCLUDE ${CMAKE_BINARY_DIR}/host-include)
file(MAKE_DIRECTORY ${BONEYARD_HOST_INCLUDE})
file(CREATE_LINK ${BONEYARD_FMT_INCLUDE}/fmt ${BONEYARD_HOST_INCLUDE}/fmt SYMBOLIC)
file(CREATE_LINK ${BONEYARD_JSON_INCLUDE}/nlohmann ${BONEYARD_HOST_INCLUDE}/nlohmann SYMBOLIC)

add_library(fmt::fmt INTERFACE IMPORTED)
target_include_directories(fmt::fmt SYSTEM INTERFACE ${BONEYARD_HOST_INCLUDE})
target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY=1)  # no libfmt.a for wasm
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE ${BONEYARD_HOST_INCLUDE})
# No threads: a search bot asked for several runs its workers one after
# another (src/bots/budget.h), which gives the same move as the native
# threads with a fixed number of iterations. (Threads in the browser would
# need SharedArrayBuffer, so cross-origin isolation headers on every host.)
add_library(Threads::Threads INTERFACE IMPORTED)

# C++ exceptions: the protocol answers a bad request with {"ok":false,...}
# by catching what the engine throws. emscripten 3.1.6 in Debian ships the
# JavaScript-based exception libraries only (no -fwasm-exceptions ones).
add_compile_options(-fexceptions)
add_link_options(-fexceptions)
# emscripten's clang warns of `a | b` on bools, which the hot paths mean
# (src/core/tile.h: "no branch"); g++ does not.
add_compile_options(-Wno-bitwise-instead-of-logical)

function(boneyard_wasm_engine)
  add_executable(boneyard_wasm src/wasm/engine.cpp)
  # emscripten's JavaScript optimizer (run by node at the link) needs Debian's
  # acorn from /usr/share/nodejs, which only Debian's own nodejs searches.
  if(EXISTS /usr/share/nodejs/acorn)
    set_property(TARGET boneyard_wasm PROPERTY RULE_LAUNCH_LINK "${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs")
  endif()
  target_link_libraries(boneyard_wasm PRIVATE boneyard_lib)
  set(out ${CMAKE_SOURCE_DIR}/web/dist/engine)
  set_target_properties(boneyard_wasm PROPERTIES OUTPUT_NAME engine SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${out})
  # One factory, createBoneyardEngine(), for a browser's Worker
  # (importScripts) and for Node (require): web/src/engine/worker.ts and
  # web/tests/wasm_parity.mjs. No file system: nothing the protocol does
  # reads or writes a file (engine.js is half the size without it).
  target_link_options(
    boneyard_wasm
    PRIVATE
    -sMODULARIZE=1
    -sEXPORT_NAME=createBoneyardEngine
    -sENVIRONMENT=web,worker,node
    -sALLOW_MEMORY_GROWTH=1
    -sNODEJS_CATCH_EXIT=0
    -sNODEJS_CATCH_REJECTION=0
    -sFILESYSTEM=0
    -sEXPORTED_FUNCTIONS=_boneyard_handle,_boneyard_bench,_malloc,_free
    -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString)
endfunction()
