/* hog: allocates (and touches) 1 MiB blocks, keeping them all, until malloc fails; then exits 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct block { struct block *next; char data[(1 << 20) - sizeof(void *)]; };
static struct block *volatile head;
int main(void) {
  size_t mib = 0;
  for (;;) {
    struct block *b = malloc(sizeof *b);
    if (!b) break;
    memset(b->data, (int)mib, sizeof b->data);
    b->next = head;
    head = b;
    mib++;
  }
  fprintf(stderr, "hog: malloc failed after %zu MiB\n", mib);
  return 3;
}
