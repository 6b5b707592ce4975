// stasis command-line tool (being built: see the CLI issue).
#include <cstdio>
int main() {
  std::puts("stasis: not yet implemented");
  return 1;
}
