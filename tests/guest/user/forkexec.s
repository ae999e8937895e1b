# Guest processes under linx-user (issue 18), run as `forkexec EXIT42`
# where EXIT42 is the path of the exit42 guest (exit_group(42)):
#
#  1. fork (clone(SIGCHLD, 0, ...)) + pipe: the child stores 99 in `var`
#     (its own copy), writes getppid() and getpid() to the pipe and exits
#     with 7.  The parent reads exactly those two words (the ppid is its
#     own pid, the pid is what clone returned), then EOF (the child's write
#     end is gone), wait4(pid) = pid with status 7 << 8, and its `var` is
#     still 0 (the child had a copy).
#  2. fork + execve(EXIT42, [EXIT42], []): a second LinxISA guest (run by
#     the emulator again): status 42 << 8.
#  3. fork + execve("/bin/sh", ["/bin/sh", "-c", "exit 5"], []): a host
#     program: status 5 << 8.
#  4. vfork (clone(CLONE_VM | CLONE_VFORK | SIGCHLD)): the child exits
#     with 3: status 3 << 8.
#  5. fork, the child kills itself with SIGTERM: the parent's wait sees a
#     death by signal 15 (status 15).
#  6. execve of a missing file in a child: the call returns -ENOENT (-2),
#     and the child reports it in its exit status (2 << 8).
#  7. wait4(-1) with no children left: -ECHILD (-10).
#
# The oracle is the Linux wait-status encoding (exit code << 8, or the
# signal number) and the values the program chose.  Prints "forkexec ok".
    .equ SIGCHLD, 17
    .equ SIGTERM, 15
    .equ CLONE_VFORK_FLAGS, 0x4111      # CLONE_VM | CLONE_VFORK | SIGCHLD

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    ldi [sp, 16], ->s0                  # argv[1]: the exit42 guest
    addtpc argv2, ->a1
    addi a1, argv2, ->a1
    sdi s0, [a1, 0]
    addtpc fds, ->s1
    addi s1, fds, ->s1
    c.movr s1, ->a0
    hl.lis 0, ->a1
%SYSCALL pipe2
%CHECK a0, 0
%SYSCALL getpid
    c.movr a0, ->s2                     # our pid

# ---- 1. fork + pipe ----
    hl.lis SIGCHLD, ->a0
    hl.lis 0, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
    hl.lis 0, ->a4
%SYSCALL clone
    BSTART COND, .Lchild1
    setc.eq a0, zero
    C.BSTART.STD FALL
    c.movr a0, ->s3                     # the child's pid
    hl.lis 0, ->a1
    BSTART COND, .Lbad
    setc.ge a1, s3
    C.BSTART.STD FALL
    lwi [s1, 4], ->a0                   # close the write end
%SYSCALL close
%CHECK a0, 0
    lwi [s1, 0], ->a0
    addtpc buf, ->a1
    addi a1, buf, ->a1
    hl.lis 16, ->a2
%SYSCALL read
%CHECK a0, 16
    addtpc buf, ->a1
    addi a1, buf, ->a1
    ldi [a1, 0], ->a0
%CHECKR a0, s2
    ldi [a1, 8], ->a0
%CHECKR a0, s3
    lwi [s1, 0], ->a0
    addtpc buf, ->a1
    addi a1, buf, ->a1
    hl.lis 16, ->a2
%SYSCALL read
%CHECK a0, 0
    c.movr s3, ->a0
    addtpc status, ->a1
    addi a1, status, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
%SYSCALL wait4
%CHECKR a0, s3
    addtpc status, ->a1
    addi a1, status, ->a1
    lwi [a1, 0], ->a0
%CHECK a0, 0x700
    addtpc var, ->a1
    addi a1, var, ->a1
    ldi [a1, 0], ->a0
%CHECK a0, 0

# ---- 2. fork + execve of a LinxISA guest ----
    addtpc argv2, ->s4
    addi s4, argv2, ->s4
    c.movr s0, ->s5
    hl.lis 42 << 8, ->s6
    BSTART CALL, .Lfork_exec, ra=.Lr2
.Lr2:
    C.BSTART.STD FALL

# ---- 3. fork + execve of a host program ----
    addtpc argv3, ->s4
    addi s4, argv3, ->s4
    addtpc binsh, ->s5
    addi s5, binsh, ->s5
    hl.lis 5 << 8, ->s6
    BSTART CALL, .Lfork_exec, ra=.Lr3
.Lr3:
    C.BSTART.STD FALL

# ---- 6. execve of a missing file: -ENOENT, reported as exit status 2 ----
    addtpc argv3, ->s4
    addi s4, argv3, ->s4
    addtpc missing, ->s5
    addi s5, missing, ->s5
    hl.lis 2 << 8, ->s6
    BSTART CALL, .Lfork_exec, ra=.Lr6
.Lr6:
    C.BSTART.STD FALL

# ---- 4. vfork ----
    hl.liu CLONE_VFORK_FLAGS, ->a0
    hl.lis 0, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
    hl.lis 0, ->a4
%SYSCALL clone
    BSTART COND, .Lchild_exit3
    setc.eq a0, zero
    C.BSTART.STD FALL
    c.movr a0, ->s3
    hl.lis 3 << 8, ->s6
    BSTART CALL, .Lwait_check, ra=.Lr4
.Lr4:
    C.BSTART.STD FALL

# ---- 5. a child killed by SIGTERM ----
    hl.lis SIGCHLD, ->a0
    hl.lis 0, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
    hl.lis 0, ->a4
%SYSCALL clone
    BSTART COND, .Lchild_kill
    setc.eq a0, zero
    C.BSTART.STD FALL
    c.movr a0, ->s3
    hl.lis SIGTERM, ->s6
    BSTART CALL, .Lwait_check, ra=.Lr5
.Lr5:
    C.BSTART.STD FALL

# ---- 7. no children left ----
    hl.lis -1, ->a0
    addtpc status, ->a1
    addi a1, status, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
%SYSCALL wait4
%CHECK a0, -10

    hl.lis 1, ->a0
    addtpc okmsg, ->a1
    addi a1, okmsg, ->a1
    hl.lis 12, ->a2
%SYSCALL write
%EXIT 0

# fork; the child runs execve(s5, s4, {NULL}) and exits with -result if it
# returns; the parent waits and checks the status against s6.
.Lfork_exec:
    C.BSTART.STD FALL
    hl.lis SIGCHLD, ->a0
    hl.lis 0, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
    hl.lis 0, ->a4
%SYSCALL clone
    BSTART COND, .Lchild_exec
    setc.eq a0, zero
    C.BSTART.STD FALL
    c.movr a0, ->s3
    hl.lis 0, ->a1
    BSTART COND, .Lbad
    setc.ge a1, s3
    C.BSTART.STD FALL
# (falls into .Lwait_check, which returns to our caller)

# wait4(s3, &status, 0, NULL) == s3 and status == s6; returns via ra.
.Lwait_check:
    C.BSTART.STD FALL
    c.movr s3, ->a0
    addtpc status, ->a1
    addi a1, status, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
%SYSCALL wait4
%CHECKR a0, s3
    addtpc status, ->a1
    addi a1, status, ->a1
    lwi [a1, 0], ->a0
%CHECKR a0, s6
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

.Lchild_exec:
    C.BSTART.STD FALL
    c.movr s5, ->a0
    c.movr s4, ->a1
    addtpc envp, ->a2
    addi a2, envp, ->a2
%SYSCALL execve
    sub zero, a0, ->a0
%SYSCALL exit_group
%FAIL

.Lchild1:
    C.BSTART.STD FALL
    hl.lis 99, ->a0
    addtpc var, ->a1
    addi a1, var, ->a1
    sdi a0, [a1, 0]
%SYSCALL getppid
    addtpc buf, ->a1
    addi a1, buf, ->a1
    sdi a0, [a1, 0]
%SYSCALL getpid
    addtpc buf, ->a1
    addi a1, buf, ->a1
    sdi a0, [a1, 8]
    lwi [s1, 4], ->a0
    addtpc buf, ->a1
    addi a1, buf, ->a1
    hl.lis 16, ->a2
%SYSCALL write
    hl.lis 7, ->a0
%SYSCALL exit_group
%FAIL

.Lchild_exit3:
    C.BSTART.STD FALL
    hl.lis 3, ->a0
%SYSCALL exit_group
%FAIL

.Lchild_kill:
    C.BSTART.STD FALL
%SYSCALL getpid
    hl.lis SIGTERM, ->a1
%SYSCALL kill
    hl.lis 100, ->a0
%SYSCALL exit_group
%FAIL

.Lbad:
    C.BSTART.STD FALL
%FAIL

    .section .rodata
okmsg:
    .ascii "forkexec ok\n"
binsh:
    .asciz "/bin/sh"
dash_c:
    .asciz "-c"
exit5:
    .asciz "exit 5"
missing:
    .asciz "/nonexistent/linxemu-forkexec"

    .data
    .p2align 3
argv2:
    .quad 0, 0
argv3:
    .quad binsh, dash_c, exit5, 0
envp:
    .quad 0
var:
    .quad 0
status:
    .quad 0
fds:
    .quad 0
buf:
    .zero 16
