#!/usr/bin/env python3
"""Runs torch-tidy's extension-* rules over pinned public PyTorch C++/CUDA
extensions (issue 26), as torch.utils.cpp_extension would build them: nvcc
for .cu files (its flags, translated by torch-tidy), c++ for the .cpp
bindings; -I the directories the projects' setup.py adds.

  scripts/realworld/extensions.py [--src /work/.mirror] [--out build/realworld-ext]

Prints per project: files, files that did not compile, crashes, findings per
rule; writes OUT/<key>.txt (torch-tidy's findings). Exit status 1 on a crash.
"""
import argparse
import json
import os
import re
import subprocess
import sys

# key, commit, the files (regex on the path), include dirs (relative)
PROJECTS = [
    ('facebookresearch+detectron2', '02b5c4e2',
     r'^detectron2/layers/csrc/.*\.(cu|cpp)$', ['detectron2/layers/csrc']),
    ('pytorch+extension-cpp', '0ec4969', r'^extension_cpp/csrc/.*\.(cu|cpp)$', []),
    ('casper-hansen+AutoAWQ_kernels', 'c7b0e88', r'^awq_ext/.*\.(cu|cpp)$',
     ['awq_ext']),
    ('open-mmlab+mmcv', 'a8073c74b',
     r'^mmcv/ops/csrc/pytorch/(cuda/(ball_query|bbox_overlaps|carafe|'
     r'chamfer_distance|nms|roi_align|focal_loss|deform_conv)_cuda\.cu|pybind\.cpp)$',
     ['mmcv/ops/csrc/common', 'mmcv/ops/csrc/common/cuda', 'mmcv/ops/csrc/pytorch']),
    ('NVIDIA+apex', '6424da3b',
     r'^csrc/(fused_dense(_cuda\.cu|\.cpp)|layer_norm_cuda(_kernel\.cu|\.cpp)|'
     r'mlp(_cuda\.cu|\.cpp)|multi_tensor_(adam|l2norm_kernel|axpby_kernel)\.cu|'
     r'amp_C_frontend\.cpp|megatron/scaled_softmax(_cuda\.cu|\.cpp))$', ['csrc']),
]

TORCH = ['-I/usr/include/torch/csrc/api/include', '-I/usr/include/python3.11']
# What torch.utils.cpp_extension passes nvcc (PyTorch 2.x), and g++.
NVCC = ['-D__CUDA_NO_HALF_OPERATORS__', '-D__CUDA_NO_HALF_CONVERSIONS__',
        '-D__CUDA_NO_BFLOAT16_CONVERSIONS__', '-D__CUDA_NO_HALF2_OPERATORS__',
        '--expt-relaxed-constexpr', '--compiler-options', "'-fPIC'", '-O3',
        '-DTORCH_API_INCLUDE_EXTENSION_H', '-DTORCH_EXTENSION_NAME=_C',
        '-D_GLIBCXX_USE_CXX11_ABI=1', '-gencode=arch=compute_80,code=sm_80',
        '-gencode', 'arch=compute_90,code=[sm_90,compute_90]', '-std=c++17',
        '--use_fast_math', '-DWITH_CUDA', '-DMMCV_WITH_CUDA']
CXX = ['-I/usr/local/cuda/include', '-O3', '-fPIC', '-std=c++17', '-DTORCH_API_INCLUDE_EXTENSION_H',
       '-DTORCH_EXTENSION_NAME=_C', '-DWITH_CUDA', '-DMMCV_WITH_CUDA']


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--src', default='/work/.mirror')
    parser.add_argument('--out', default='build/realworld-ext')
    parser.add_argument('--torch-tidy', default='build/tool/torch-tidy')
    parser.add_argument('--projects', default='')
    args = parser.parse_args()
    crashed = False
    for key, commit, pattern, includes in PROJECTS:
        if args.projects and key not in args.projects.split(','):
            continue
        git = os.path.join(args.src, key, 'repo')
        tree = os.path.abspath(os.path.join(args.out, 'src', key))
        os.makedirs(tree, exist_ok=True)
        names = subprocess.run(['git', '--git-dir', git, 'ls-tree', '-r',
                                '--name-only', commit], check=True,
                               stdout=subprocess.PIPE, text=True).stdout.split()
        subprocess.run('git --git-dir %s archive %s | tar -x -C %s' %
                       (git, commit, tree), shell=True, check=True)
        files = [n for n in names if re.search(pattern, n)]
        incs = ['-I' + os.path.join(tree, i) for i in includes] + TORCH
        db = []
        for name in files:
            path = os.path.join(tree, name)
            if name.endswith('.cu'):
                cmd = ['/usr/local/cuda/bin/nvcc'] + incs + ['-c', path, '-o',
                                                             path + '.o'] + NVCC
            else:
                cmd = ['c++'] + incs + CXX + ['-c', path, '-o', path + '.o']
            db.append({'directory': tree, 'file': path, 'arguments': cmd})
        dbdir = os.path.join(os.path.abspath(args.out), 'db', key)
        os.makedirs(dbdir, exist_ok=True)
        with open(os.path.join(dbdir, 'compile_commands.json'), 'w') as f:
            json.dump(db, f, indent=1)
        run = subprocess.run(['nice', '-n', '19', args.torch_tidy, '-p', dbdir,
                              '-j', '1', '--checks=-*,extension-*']
                             + [os.path.join(tree, n) for n in files],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        with open(os.path.join(args.out, key + '.txt'), 'w') as f:
            f.write(run.stdout)
        findings = re.findall(r'^(\S+):(\d+):\d+: warning: .*\[(extension-[a-z-]+),',
                              run.stdout, re.M)
        failed = re.search(r'(\d+) failed to compile', run.stderr)
        crash = 'torch-tidy-crash' in run.stdout or run.returncode >= 128
        crashed |= crash
        per_rule = {}
        for _, _, rule in findings:
            per_rule[rule] = per_rule.get(rule, 0) + 1
        print('%s@%s: %d files, %s failed to compile, crash %s, findings %s' %
              (key, commit, len(files), failed.group(1) if failed else '?',
               crash, json.dumps(per_rule, sort_keys=True)))
        sys.stdout.flush()
    return 1 if crashed else 0


if __name__ == '__main__':
    sys.exit(main())
