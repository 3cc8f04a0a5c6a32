package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts SQL text at the semicolons that end statements, skipping those inside literals, comments and
 * the BEGIN … END bodies of CREATE PROCEDURE/FUNCTION/TRIGGER (so that a routine's body is never
 * taken for statements of its own).
 */
final class StatementSplitter {

    /** The [start, end) ranges of the non-empty statements, and whether a MySQL executable comment was seen. */
    record Split(List<int[]> statements, boolean executableComment) {
    }

    private StatementSplitter() {
    }

    static Split split(String sql, Dialect dialect) {
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        List<int[]> statements = new ArrayList<>();
        int start = -1;
        boolean create = false;
        int blocks = 0;          // open BEGIN/CASE inside a CREATE statement
        boolean afterEnd = false; // END seen: it closes a block unless END IF/LOOP/WHILE/REPEAT follows
        while (lexer.next() != SqlLexer.Kind.END) {
            if (afterEnd) {
                afterEnd = false;
                if (!lexer.isWordIn("IF", "LOOP", "WHILE", "REPEAT")) blocks = Math.max(0, blocks - 1);
            }
            if (lexer.isSymbol(';')) {
                if (blocks == 0 && start >= 0) {
                    statements.add(new int[] {start, lexer.start()});
                    start = -1;
                }
                continue;
            }
            if (start < 0) {
                start = lexer.start();
                create = lexer.isWord("CREATE");
                blocks = 0;
            } else if (create && lexer.isWordIn("BEGIN", "CASE")) {
                blocks++;
            } else if (create && lexer.isWord("END")) {
                afterEnd = true;
            }
        }
        if (start >= 0) statements.add(new int[] {start, sql.length()});
        return new Split(statements, lexer.sawExecutableComment());
    }
}
