/* flood: writes 100 MB to stdout. */
#include <stdio.h>
#include <string.h>
int main(void) {
  static char buf[1 << 16];
  memset(buf, 'x', sizeof buf);
  for (long written = 0; written < 100L * 1000 * 1000; written += (long)sizeof buf) fwrite(buf, 1, sizeof buf, stdout);
  return 0;
}
