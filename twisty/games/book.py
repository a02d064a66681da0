"""Read These Before You Die: a book of grid pages where creatures make cells deadly or safe, and a walk must
cross the book."""

from twisty.games.entry import Engine, Game, Question

GAME = Game(
    name="book",
    title="Read These Before You Die",
    rulebook="Read These Before You Die",
    questions=(
        Question("walk", "solvable or not, the shortest walk, the corridor, and whether the walk is unique"),
        Question("readings", "whether other readings of the rulebook change the answer (the ambiguity lint)"),
    ),
    engines=(
        Engine(
            "rules",
            "twisty.solver.book",
            frozenset({"walk", "readings"}),
            "the rule engine: every cell evaluated, breadth-first walk over path states",
        ),
        Engine(
            "sat",
            "twisty.solver.book_sat",
            frozenset({"walk"}),
            "the rules as SAT over the cells' contents: the walk over time steps, one evaluation per change "
            "the walk makes (books of at most 400 cells; the corridor's shape from the rule engine)",
        ),
    ),
    auto=("rules",),
    loader="twisty.rules.book.loader:load_book",
    checker="twisty.report.book",
    renderer="twisty.render.pictures_book",
    page="twisty.serve.page_book",
    generator="twisty.generator.book:generate_from",
    solving=frozenset({"walk"}),
    docs="docs/book.md",
)
