// A line driver for Egaroucid's web edition (src/web/ of github.com/Nyanyan/Egaroucid), built
// natively outside this repository by bench/public_match.py's instructions (docs/strength.md).
// Only this file is ours; it includes Egaroucid's headers from the build directory.
//
// Usage: egaroucid_cli LEVEL   (book compiled out with -DNO_BOOK: the web edition's search and
// evaluation only).
// In, one position a line: 64 characters, a1..h1, a2..h2, ... h8 (row 1 at the top, as our
// caro.engine.reversi names squares), 'X' black, 'O' white, '.' empty; a space; the side to move,
// 'X' or 'O'.
// Out, one line per position: the square to play and Egaroucid's value of the position for the side
// to move (final disc difference it expects: "d3 -4"), or "pass"; "error <text>" for bad input.
#include <iostream>
#include <string>
#include "web/ai.hpp"

int main(int argc, char **argv) {
    int level = argc > 1 ? std::atoi(argv[1]) : 8;
    board_init();
    mobility_init();
    stability_init();
    parent_transpose_table.first_init();
    child_transpose_table.first_init();
    evaluate_init();
    std::cout << "ready level " << level << std::endl;
    std::string cells, side;
    while (std::cin >> cells >> side) {
        if (cells.size() != 64 || (side != "X" && side != "O")) {
            std::cout << "error bad position" << std::endl;
            continue;
        }
        char me = side[0], you = me == 'X' ? 'O' : 'X';
        Board b;
        b.player = 0;
        b.opponent = 0;
        for (int i = 0; i < 64; ++i) {
            if (cells[i] == me) b.player |= 1ULL << (HW2_M1 - i);
            else if (cells[i] == you) b.opponent |= 1ULL << (HW2_M1 - i);
        }
        if (b.get_legal() == 0ULL) {
            std::cout << "pass" << std::endl;
            continue;
        }
        Search_result r = ai(b, level, false, false, false);
        std::cout << idx_to_coord(r.policy) << " " << r.value << std::endl;
    }
    return 0;
}
