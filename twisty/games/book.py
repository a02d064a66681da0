"""Read These Before You Die: a book of grid pages where creatures make cells deadly or safe, and a walk must
cross the book."""

from twisty.games.entry import Engine, Game, Param, Question

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
    answer="walk",
    answer_help="the shortest walk",
    render_options=("twisty.commands.book:spread_option",),
    page="twisty.serve.page_book",
    generator="twisty.generator.book:generate_from",
    solving=frozenset({"walk"}),
    headline=("moves", "unique"),
    generator_params=(
        Param("pages", "int", "pages of the book (default 6)"),
        Param("size", "str", 'every page\'s "ROWSxCOLS" (default 6x8), or rows= and cols='),
        Param("rows", "int", "rows per page"),
        Param("cols", "int", "columns per page"),
        Param("rules", "words", "rule families each book must teach (default wolf,vampire,oracle)"),
        Param("walk_length", "int", "moves of the walk (default 1.5 x columns per page)"),
        Param("density", "float", "share of the cells around the corridor that hold something (default 0.6)"),
        Param("first_page", "int", "the first page's number (2: start with a spread)"),
    ),
    docs="docs/book.md",
    generate_command="twisty.commands.generate_book:generate_book_command",
    bench_commands=(("book", "twisty.commands.book:bench_book"),),
    commands=(("explain", "twisty.commands.book:explain"), ("complete", "twisty.commands.complete:complete")),
)
