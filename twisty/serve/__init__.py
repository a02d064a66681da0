"""`twisty serve`: a local web page to browse a folder of levels, see their verdicts and pictures, and edit
them with the verdict updating live. The application is twisty.serve.app; it calls the public API."""
