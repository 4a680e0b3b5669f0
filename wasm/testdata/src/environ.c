/* environ: prints its argv (one per line, "arg: ...") and environment ("env: K=V") to stdout. */
#include <stdio.h>
extern char **environ;
int main(int argc, char **argv) {
  for (int i = 0; i < argc; i++) printf("arg: %s\n", argv[i]);
  for (char **e = environ; *e; e++) printf("env: %s\n", *e);
  return 0;
}
