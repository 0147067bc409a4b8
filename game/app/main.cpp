// main.cpp — Colony's entry point (placeholder until the simulation lands).
#include <cstdio>

int main() {
  std::puts("colony: the simulation is not built yet");
  return 0;
}
