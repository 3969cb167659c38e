/* back_to_back PROGRAM FILE...: runs PROGRAM (no arguments) once per FILE, one after the other,
 * each with the file as standard input and standard output thrown away, started the way
 * referee audit starts a program (posix_spawn, no shell); prints the wall-clock seconds taken.
 * The bare program's side of scripts/audit_bench.sh. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: back_to_back PROGRAM FILE...\n");
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int devnull = open("/dev/null", O_WRONLY);
    for (int i = 2; i < argc; i++) {
        int in = open(argv[i], O_RDONLY);
        if (in < 0) {
            perror(argv[i]);
            return 2;
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in, 0);
        posix_spawn_file_actions_adddup2(&actions, devnull, 1);
        pid_t pid;
        char *args[] = {argv[1], NULL};
        if (posix_spawn(&pid, argv[1], &actions, NULL, args, environ) != 0) {
            perror(argv[1]);
            return 2;
        }
        int status;
        waitpid(pid, &status, 0);
        close(in);
        posix_spawn_file_actions_destroy(&actions);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("%.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
    return 0;
}
