// torch-tidy: empty stand-in for a header clang's CUDA parse needs; see cuda_shims/README.md.
