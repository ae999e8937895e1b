# exit_group(42): linx-user exits with the program's status.
    .text
    .globl _start
_start:
%EXIT 42
