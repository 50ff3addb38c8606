"""What the test files share, one module a concern:

- ``games``: squares by name, set-up positions, expected turns, snapshots, random games;
- ``processes``: Python in a child process (``run_python``, ``start_python``);
- ``compilers``: the C compilers, and the AArch64 cross compiler and emulator;
- ``readme_blocks``: the code blocks of the README and of docs/*.md;
- ``runfolders``: the self-play run the run folder tests play, and its edits;
- ``serve_client`` and ``serve_process``: the web app in a test client, and as a process;
- ``services``: a real PostgreSQL server and nginx (deploy/nginx.conf), for the deployment tests;
- ``tasks``: backend tasks that worker processes import by name;
- ``typed_example``: a typed program of the public API (tests/test_typing.py).
"""
