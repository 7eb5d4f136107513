#!/bin/sh
# Print the Python interpreter for the virtualenv: 3.12 or 3.13 when installed (Django 6.x needs
# 3.12+), else python3 >= 3.11 (the lock file then installs Django 5.2 LTS).
for c in python3.12 python3.13 $(ls -d "$HOME"/.pyenv/versions/3.12*/bin/python3 "$HOME"/.pyenv/versions/3.13*/bin/python3 2>/dev/null) python3 python; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
    echo "$c"
    exit 0
  fi
done
echo "Serve Python 3.11 o più recente (con venv e ensurepip)." >&2
exit 1
