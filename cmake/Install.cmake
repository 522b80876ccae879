# What `cmake --install` (and `make install PREFIX=...`) installs, and the
# Debian package `make package` builds from it (CPack): torch-tidy, the
# clang-tidy plugin, torch-tidy-probe when it is built, a man page made from
# --help, the README and the rules' pages, cuda_shims/. The installed torch-tidy finds
# torch-tidy-probe beside itself, and clang's resource headers where Debian's
# clang 19 keeps them (a dependency of the package).
include(GNUInstallDirs)

if(TORCH_TIDY_WITH_ANALYZER)
  install(TARGETS torch-tidy RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(TARGETS TorchTidyModule LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  # The compatibility headers of CUDA sources (tool/CudaCommand.cpp finds
  # them beside the installed binary).
  install(DIRECTORY cuda_shims/ DESTINATION ${CMAKE_INSTALL_DATADIR}/torch-tidy/cuda_shims)

  # The man page: --help's text in a roff page, made after each build of
  # torch-tidy (help2man is not a dependency of the build).
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(TORCH_TIDY_MAN_PAGE ${CMAKE_BINARY_DIR}/man/torch-tidy.1)
  add_custom_command(
    OUTPUT ${TORCH_TIDY_MAN_PAGE}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/help-to-man.py
            $<TARGET_FILE:torch-tidy> ${TORCH_TIDY_MAN_PAGE}
    DEPENDS torch-tidy ${CMAKE_SOURCE_DIR}/scripts/help-to-man.py
    COMMENT "Writing the man page torch-tidy.1 from --help")
  add_custom_target(torch-tidy-man ALL DEPENDS ${TORCH_TIDY_MAN_PAGE})
  install(FILES ${TORCH_TIDY_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
if(TORCH_TIDY_PROBE)
  install(TARGETS torch-tidy-probe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME torch-tidy)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "torch-tidy maintainers <${TORCH_TIDY_INFO_URI}>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Device-consistency bugs in LibTorch C++ code (a clang-tidy for LibTorch)")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${TORCH_TIDY_INFO_URI})
# The shared libraries' packages (clang 19's, LLVM's, LibTorch's for the
# probe) as dpkg-shlibdeps finds them; clang's resource headers by hand.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-common-19-dev")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
