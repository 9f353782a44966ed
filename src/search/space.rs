//! The search space of one board and problem, and how it is cut into parts.
//!
//! The tree is cut by the first queen: one *root part* per symmetry class of squares, the part of
//! class j placing a queen on its representative (its lowest square) and forbidding every square
//! of the classes before it. Any layout can be turned by a symmetry into one that lands in exactly
//! one part. A root part whose first queen is fixed by some symmetries (a square on a diagonal or
//! a middle line, or the centre) is cut again by the second queen in the same way under those
//! symmetries. Below that, a part is cut by the search's own branching: the children of a node are
//! its candidates in search order, child i placing candidate i and forbidding candidates 0..i.
//!
//! So every part of the tree is named by a path of indices from the root (the [`Located`] node
//! of a path is rebuilt from the path alone, whatever the bound), and the parts of a cut partition
//! the layouts of their parent: the same tree can be searched by rayon tasks in one process or by
//! workers on many machines, with the same result.

use crate::board::{Bits, Board, Geometry, Symmetry};
use crate::layout::Layout;
use crate::problem::Problem;

use super::kernel::{Node, Searcher};
use super::lines::MAX_CANDIDATES;
use super::shared::{child_path, root_path, Key, Shared, MAX_ROOT_PARTS, MAX_SPLIT_LEVELS};

/// The order of the parts of a cut.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum PartOrder {
    /// Row-major. Measured best for proofs (14x14, no 7 queens: 662k nodes against 942k
    /// strongest-first; 16x16, no 8: 6.0M against 10.7M), so domination uses it once the local
    /// search has found a good layout to prove.
    BoardOrder,
    /// Squares covering most first: these parts find layouts early, which is what independent
    /// domination needs where its start is above the optimum. With the local search's starts,
    /// board order proves 12-26% faster where the start is optimal (13x18, 14x17, 15x17, 15x18,
    /// 16x16, 17x17) but is 3-5 times slower where it is not (13x16: 1.9M nodes against 0.61M;
    /// 16x17: 36M against 6.8M), so i keeps this order.
    StrongestFirst,
}

impl PartOrder {
    pub fn for_problem(problem: Problem) -> PartOrder {
        if problem.forbids_attacks() {
            PartOrder::StrongestFirst
        } else {
            PartOrder::BoardOrder
        }
    }
}

/// The classes of `squares` under `symmetries` (which must map the set onto itself), each as
/// (representative: its lowest square, the whole class), in search order.
pub(crate) fn square_classes<const W: usize>(
    geo: &Geometry<W>,
    symmetries: &[Symmetry],
    squares: &Bits<W>,
    order: PartOrder,
) -> Vec<(usize, Vec<usize>)> {
    let board = geo.board;
    let mut classes: Vec<(usize, Vec<usize>)> = Vec::new();
    squares.for_each(|s| {
        let mut class: Vec<usize> = symmetries
            .iter()
            .map(|g| board.index(g.apply(board, board.square(s))))
            .collect();
        class.sort_unstable();
        class.dedup();
        if class[0] == s {
            classes.push((s, class));
        }
    });
    if order == PartOrder::StrongestFirst {
        classes.sort_by_key(|(s, _)| (std::cmp::Reverse(geo.cover[*s].count()), *s));
    }
    classes
}

/// Longest path that names a part: the root part, then as many levels as the search order has
/// room for.
pub(crate) const MAX_PATH_LEN: usize = 1 + MAX_SPLIT_LEVELS;

/// A part whose first queen is fixed: it places the queen on `first` and forbids `before`.
pub(crate) struct RootPart<const W: usize> {
    pub first: u16,
    pub before: Bits<W>,
    /// The cut by the second queen, if the first one is fixed by some symmetries.
    pub second: Option<SecondCut<W>>,
}

/// The cut of a root part by its second queen, one subpart per class of the squares a second
/// queen may take under the symmetries fixing the first.
pub(crate) struct SecondCut<const W: usize> {
    /// (second queen, the squares of the classes before it, forbidden in the subpart).
    pub subparts: Vec<(u16, Bits<W>)>,
    /// The subpart whose class holds each square (`u16::MAX`: not a square a second queen may take).
    pub subpart_of: Vec<u16>,
}

/// A node of the cut tree, rebuilt from its path.
#[derive(Clone)]
pub(crate) struct Located<const W: usize> {
    pub node: Node<W>,
    /// The queens placed, in order.
    pub queens: Vec<u16>,
    /// The path's length: 0 the whole tree, 1 a root part, 2 a part of a root part, …
    pub depth: usize,
    /// Where the part sits in the search order (see `shared::Key`).
    pub order_path: u64,
}

/// The search space of one board and problem (bitboards of `W` words).
pub(crate) struct SpaceW<const W: usize> {
    pub geo: Geometry<W>,
    pub problem: Problem,
    /// Every symmetry of the board as a permutation of its squares.
    pub permutations: Vec<Vec<u16>>,
    pub roots: Vec<RootPart<W>>,
    /// The root part whose class holds each square.
    pub root_of: Vec<u16>,
}

impl<const W: usize> SpaceW<W> {
    pub fn new(board: Board, problem: Problem) -> SpaceW<W> {
        let geo = Geometry::<W>::new(board);
        let symmetries = board.symmetries();
        let permutations = symmetries
            .iter()
            .map(|g| {
                (0..board.squares())
                    .map(|s| board.index(g.apply(board, board.square(s))) as u16)
                    .collect()
            })
            .collect();
        let order = PartOrder::for_problem(problem);
        let classes = square_classes(&geo, &symmetries, &geo.full, order);
        assert!(classes.len() <= MAX_ROOT_PARTS);
        let mut root_of = vec![0u16; board.squares()];
        let mut roots = Vec::with_capacity(classes.len());
        let mut before = Bits::<W>::EMPTY;
        for (j, (first, class)) in classes.iter().enumerate() {
            let node = Node {
                covered: geo.cover[*first],
                forbidden: before,
            };
            let second = second_cut(&geo, *first, &node, problem);
            roots.push(RootPart {
                first: *first as u16,
                before,
                second,
            });
            for &s in class {
                before.set(s);
                root_of[s] = j as u16;
            }
        }
        SpaceW {
            geo,
            problem,
            permutations,
            roots,
            root_of,
        }
    }

    pub fn board(&self) -> Board {
        self.geo.board
    }

    /// The whole tree.
    pub fn whole(&self) -> Located<W> {
        Located {
            node: Node {
                covered: Bits::EMPTY,
                forbidden: Bits::EMPTY,
            },
            queens: Vec::new(),
            depth: 0,
            order_path: 0,
        }
    }

    /// The children of `at` in the cut tree, each with its index among the children, in search
    /// order. Empty for a part that cannot be cut (every square covered, or a square left with no
    /// candidate).
    pub fn children(&self, at: &Located<W>) -> Vec<(usize, Located<W>)> {
        match at.depth {
            0 => (0..self.roots.len())
                .map(|j| (j, self.root_part(j)))
                .collect(),
            1 if self.is_structural(at) => {
                let cut = self.roots[self.root_index(at)].second.as_ref().unwrap();
                (0..cut.subparts.len())
                    .map(|k| {
                        let (second, before) = cut.subparts[k];
                        let mut queens = at.queens.clone();
                        queens.push(second);
                        let child = Located {
                            node: Node {
                                covered: at.node.covered.or(&self.geo.cover[second as usize]),
                                forbidden: at.node.forbidden.or(&before),
                            },
                            queens,
                            depth: 2,
                            order_path: child_path(at.order_path, 1, k),
                        };
                        (k, child)
                    })
                    .collect()
            }
            _ => {
                let shared = Shared::new(Key::new(1, 0), None, None);
                let mut s = Searcher::new(&self.geo, &shared, None, self.problem, 0);
                s.enter(&at.queens, &at.node);
                let mut cands = [0u16; MAX_CANDIDATES];
                let Some(n) = s.candidates(&at.node, &mut cands) else {
                    return Vec::new();
                };
                (0..n)
                    .map(|i| (i, self.branch_child(at, &cands, i)))
                    .collect()
            }
        }
    }

    /// Child `i` of `at` by the search's branching, `cands` being `at`'s candidates.
    pub fn branch_child(&self, at: &Located<W>, cands: &[u16], i: usize) -> Located<W> {
        let mut forbidden = at.node.forbidden;
        for &v in &cands[..i] {
            forbidden.set(v as usize);
        }
        let mut queens = at.queens.clone();
        queens.push(cands[i]);
        Located {
            node: Node {
                covered: at.node.covered.or(&self.geo.cover[cands[i] as usize]),
                forbidden,
            },
            queens,
            depth: at.depth + 1,
            order_path: child_path(at.order_path, at.depth, i),
        }
    }

    /// Whether the children of `at` are a symmetry cut (the root parts, or a root part's
    /// second-queen parts) rather than the search's branching.
    pub fn is_structural(&self, at: &Located<W>) -> bool {
        at.depth == 0 || (at.depth == 1 && self.roots[self.root_index(at)].second.is_some())
    }

    fn root_index(&self, at: &Located<W>) -> usize {
        self.root_of[at.queens[0] as usize] as usize
    }

    pub fn root_part(&self, j: usize) -> Located<W> {
        let root = &self.roots[j];
        Located {
            node: Node {
                covered: self.geo.cover[root.first as usize],
                forbidden: root.before,
            },
            queens: vec![root.first],
            depth: 1,
            order_path: root_path(j),
        }
    }

    /// The node at `path`, or `None` if the path names no part of this tree.
    pub fn locate(&self, path: &[u16]) -> Option<Located<W>> {
        if path.len() > MAX_PATH_LEN {
            return None;
        }
        let mut at = self.whole();
        for &index in path {
            at = self.children(&at).into_iter().nth(index as usize)?.1;
        }
        Some(at)
    }

    /// Whether the search visits `layout` (sorted squares): its lowest class of squares is the
    /// root part it lands in, that part's first queen is in it, and so on for the second queen.
    /// Below the second queen every layout of a part is visited exactly once.
    pub fn visits(&self, layout: &[u16]) -> bool {
        let Some(j) = layout.iter().map(|&s| self.root_of[s as usize]).min() else {
            return false;
        };
        let root = &self.roots[j as usize];
        if !layout.contains(&root.first) {
            return false;
        }
        let Some(cut) = &root.second else {
            return true;
        };
        let k = layout
            .iter()
            .filter(|&&s| s != root.first)
            .map(|&s| cut.subpart_of[s as usize])
            .min();
        match k {
            Some(k) if k != u16::MAX => layout.contains(&cut.subparts[k as usize].0),
            _ => false,
        }
    }

    /// The class of `layout` (sorted squares) under the board's symmetries: every distinct image,
    /// each sorted, in increasing order (so the first is the class's canonical member).
    pub fn class_of(&self, layout: &[u16]) -> Vec<Vec<u16>> {
        let mut class: Vec<Vec<u16>> = self
            .permutations
            .iter()
            .map(|p| {
                let mut image: Vec<u16> = layout.iter().map(|&s| p[s as usize]).collect();
                image.sort_unstable();
                image
            })
            .collect();
        class.sort_unstable();
        class.dedup();
        class
    }
}

/// Symmetry breaking inside a root part whose first queen `first` is fixed by some symmetries:
/// the part's subproblem is invariant under those symmetries, so it is cut again by the second
/// queen, one subpart per class of squares under them, exactly as the root is cut by the first
/// queen. `None` when only the identity fixes `first`, when `first` alone covers the board, or
/// when there would be too many subparts to number.
fn second_cut<const W: usize>(
    geo: &Geometry<W>,
    first: usize,
    node: &Node<W>,
    problem: Problem,
) -> Option<SecondCut<W>> {
    let board = geo.board;
    let fixing: Vec<Symmetry> = board
        .symmetries()
        .into_iter()
        .filter(|g| g.apply(board, board.square(first)) == board.square(first))
        .collect();
    if fixing.len() < 2 || node.covered == geo.full {
        return None;
    }
    // Where a second queen may stand; both the covered and the forbidden squares are unions of
    // classes, so this set is mapped onto itself by every symmetry fixing `first`.
    let mut allowed = if problem.forbids_attacks() {
        geo.full.minus(&node.covered)
    } else {
        geo.full
    }
    .minus(&node.forbidden);
    allowed.clear(first);
    let classes = square_classes(geo, &fixing, &allowed, PartOrder::for_problem(problem));
    // Subparts are numbered in 8 bits of the search order.
    if classes.is_empty() || classes.len() > 255 {
        return None;
    }
    let mut before = Bits::<W>::EMPTY;
    let mut subparts = Vec::with_capacity(classes.len());
    let mut subpart_of = vec![u16::MAX; board.squares()];
    for (k, (t, class)) in classes.into_iter().enumerate() {
        subparts.push((t as u16, before));
        for s in class {
            before.set(s);
            subpart_of[s] = k as u16;
        }
    }
    Some(SecondCut {
        subparts,
        subpart_of,
    })
}

/// The layout of `queens` (squares as the search numbers them) on `board`.
pub(crate) fn layout_of(board: Board, queens: &[u16]) -> Layout {
    Layout::new(
        board,
        queens.iter().map(|&q| board.square(q as usize)).collect(),
    )
}

/// The squares of `layout` as the search numbers them on `board`: the inverse of [`layout_of`].
pub(crate) fn indices_of(board: Board, layout: &Layout) -> Vec<u16> {
    layout
        .queens()
        .iter()
        .map(|&q| board.index(q) as u16)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_parts_cover_every_square_once() {
        for (r, c) in [(5, 5), (4, 6), (1, 7), (6, 6)] {
            let board = Board::new(r, c).unwrap();
            for problem in Problem::ALL {
                let space = SpaceW::<1>::new(board, problem);
                let geo = &space.geo;
                let classes = square_classes(
                    geo,
                    &board.symmetries(),
                    &geo.full,
                    PartOrder::for_problem(problem),
                );
                let mut all: Vec<usize> = classes.iter().flat_map(|p| p.1.clone()).collect();
                all.sort_unstable();
                assert_eq!(all, (0..r * c).collect::<Vec<_>>());
                assert_eq!(space.roots.len(), classes.len());
            }
        }
    }

    #[test]
    fn paths_locate_the_children_they_name() {
        let space = SpaceW::<1>::new(Board::new(6, 6).unwrap(), Problem::Domination);
        for (j, root) in space.children(&space.whole()) {
            let found = space.locate(&[j as u16]).unwrap();
            assert_eq!(found.queens, root.queens);
            for (k, child) in space.children(&root).into_iter().take(3) {
                let found = space.locate(&[j as u16, k as u16]).unwrap();
                assert_eq!(found.queens, child.queens);
                assert_eq!(found.order_path, child.order_path);
                assert!(found.order_path > root.order_path || k == 0);
            }
        }
        assert!(space.locate(&[200]).is_none());
    }
}
