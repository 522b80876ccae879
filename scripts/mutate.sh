#!/usr/bin/env bash
# Mutation testing on the real-world projects: scripts/mutate.py (see its --help).
exec python3 "$(dirname "${BASH_SOURCE[0]}")/mutate.py" "$@"
