// Side-by-side driver for issue 43 (our code, built against HOG2 outside
// this repository): HOG2's TemplateAStar with SetWeight(w) on Korf's 100
// (Korf goal), Manhattan distance, one core. Prints: id cost expanded
// seconds, then totals. Build (HOG2 from github.com/nathansttt/hog2 in
// /tmp/hog2):
//   cd /tmp/hog2/build/SFML && for d in gui/STUB utils graph algorithms \
//     environments envutil; do make -C $d release OPENGL=STUB -j2; done
//   H=/tmp/hog2; INC=$(find $H/generic $H/environments $H/utils $H/graph \
//     $H/algorithms $H/envutil $H/gui $H/search -type d | grep -v ' ' | sed 's/^/-I/')
//   g++ -O3 -std=c++17 -DNDEBUG $INC hog2_wastar.cpp -o wastar -L$H/bin/release \
//     -lenvironments -lenvutil -lalgorithms -lgraph -lutils -lSTUB -lpthread
// Run: ./wastar 2 data/tiles/korf100.tsv
#include "MNPuzzle.h"
#include "TemplateAStar.h"
#include "Timer.h"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
int main(int argc, char **argv) {
	double w = atof(argv[1]);
	std::ifstream in(argv[2]);
	std::string line;
	std::getline(in, line);  // header
	MNPuzzle<4, 4> mnp;
	MNPuzzleState<4, 4> goal;
	TemplateAStar<MNPuzzleState<4, 4>, slideDir, MNPuzzle<4, 4>> astar;
	astar.SetWeight(w);
	uint64_t total = 0;
	double seconds = 0, cost = 0;
	int n = 0;
	while (std::getline(in, line)) {
		std::stringstream ss(line);
		std::string id, korf;
		std::getline(ss, id, '\t');
		std::getline(ss, korf, '\t');
		std::stringstream ts(korf);
		MNPuzzleState<4, 4> start;
		for (int i = 0; i < 16; i++) {
			int t; ts >> t; start.puzzle[i] = t;
			if (t == 0) start.blank = i;
		}
		std::vector<MNPuzzleState<4, 4>> path;
		Timer timer;
		timer.StartTimer();
		astar.GetPath(&mnp, start, goal, path);
		double s = timer.EndTimer();
		printf("%s %zu %llu %.4f\n", id.c_str(), path.size() - 1, (unsigned long long)astar.GetNodesExpanded(), s);
		total += astar.GetNodesExpanded(); seconds += s; cost += path.size() - 1; n++;
	}
	printf("total %d instances, mean cost %.2f, %llu expanded, %.3f s, %.0f exp/s\n", n, cost / n, (unsigned long long)total, seconds, total / seconds);
}
