# A compiler cache (Debian's ccache) launches every compile when it is
# installed, so that a second `make test`, and a CI run on the same machine,
# reuse the objects of the release and the instrumented build. Its base
# directory is the source tree, so a clone in another folder hits the same
# entries (paths inside the tree are hashed relative to the build directory).
# -DTORCH_TIDY_CCACHE=OFF, or a launcher of one's own, turns this off.
option(TORCH_TIDY_CCACHE "Launch compiles through ccache when it is installed" ON)
if(TORCH_TIDY_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(TORCH_TIDY_CCACHE_PROGRAM ccache)
  if(TORCH_TIDY_CCACHE_PROGRAM)
    # The sloppiness lets ccache cache compiles that use a precompiled
    # header (checks/ClangAstHeaders.h), as its manual describes. NOHASHDIR:
    # the instrumented build's line tables (-gline-tables-only) would put the
    # build directory in every key; a hit from another clone keeps the first
    # clone's directory in the line tables, which only sanitizer stack traces
    # read.
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
        CCACHE_NOHASHDIR=1
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${TORCH_TIDY_CCACHE_PROGRAM})
  endif()
endif()
