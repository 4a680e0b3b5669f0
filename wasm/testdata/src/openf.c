/*
 * openf: tries to read /secret.txt (never granted), then, when a tree is mounted at /data, prints
 * /data/hello.txt to stdout and tries to create /data/new.txt. Reports each outcome on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  FILE *f = fopen("/secret.txt", "r");
  fprintf(stderr, "open /secret.txt: %s\n", f ? "ok" : strerror(errno));
  f = fopen("/data/hello.txt", "r");
  if (f) {
    char buf[256];
    size_t n = fread(buf, 1, sizeof buf, f);
    fwrite(buf, 1, n, stdout);
    fclose(f);
    fputs("open /data/hello.txt: ok\n", stderr);
  } else {
    fprintf(stderr, "open /data/hello.txt: %s\n", strerror(errno));
  }
  f = fopen("/data/new.txt", "w");
  fprintf(stderr, "create /data/new.txt: %s\n", f ? "ok" : strerror(errno));
  return 0;
}
