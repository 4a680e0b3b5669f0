/* fail: reports an error on stderr and exits 7 without writing a ResourceList. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  fputs("fail: something went wrong\n", stderr);
  exit(7);
}
