package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;

/**
 * EXPLAIN and ANALYZE: PostgreSQL's and H2's {@code EXPLAIN ANALYZE}, MySQL's {@code EXPLAIN
 * ANALYZE} and MariaDB's {@code ANALYZE stmt} run the statement they explain. Opaque when they run
 * one that may change rows, else a query ({@code EXPLAIN} alone, {@code ANALYZE t} statistics).
 */
final class ExplainAnalysis {

    private ExplainAnalysis() {
    }

    /** {@code lexer} stands on the first word, EXPLAIN or ANALYZE. */
    static Analysis analyze(String sql, Dialect dialect, SqlLexer lexer) {
        boolean runs = lexer.isWordIn("ANALYZE", "ANALYSE");
        boolean afterAnalyze = false;
        int depth = 0;
        while (lexer.next() != SqlLexer.Kind.END) {
            boolean off = lexer.isWordIn("FALSE", "OFF")
                    || (lexer.kind() == SqlLexer.Kind.NUMBER && lexer.text().equals("0"));
            if (afterAnalyze && off) runs = false; // EXPLAIN (ANALYZE false) …
            afterAnalyze = false;
            if (lexer.isSymbol('(')) {
                depth++;
            } else if (lexer.isSymbol(')')) {
                depth--;
            } else if (lexer.isWordIn("ANALYZE", "ANALYSE")) {
                runs = true;
                afterAnalyze = true;
            } else if (depth == 0 && lexer.isWordIn("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE",
                    "WITH", "TABLE", "VALUES", "EXECUTE", "CREATE", "DECLARE")) {
                if (!runs) return NotDml.INSTANCE;
                Analysis inner = SqlClassifier.analyze(sql.substring(lexer.start()), dialect);
                if (inner instanceof NotDml) return inner;
                List<TableRef> tables = inner instanceof Dml d ? List.of(d.target())
                        : inner instanceof MultiTableDml m ? m.changedTables()
                        : inner instanceof WithDml w ? w.refusal().tablesNamed() : ((Opaque) inner).tablesNamed();
                return new Opaque(Reasons.EXPLAIN_ANALYZE, tables);
            }
        }
        return NotDml.INSTANCE;
    }
}
