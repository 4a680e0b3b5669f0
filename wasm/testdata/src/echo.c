/* echo: copies stdin to stdout unchanged. */
#include <stdio.h>
int main(void) {
  static char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) fwrite(buf, 1, n, stdout);
  return 0;
}
