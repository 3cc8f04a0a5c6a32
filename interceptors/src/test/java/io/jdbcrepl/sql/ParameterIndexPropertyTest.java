package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statements built from pieces whose {@code ?} count is known: every clause must report exactly
 * its own parameters, numbered in source order, and its text exactly as generated.
 */
class ParameterIndexPropertyTest {

    /** An expression and the number of JDBC parameters in it (none inside literals or comments). */
    record Piece(String sql, int parameters) {
    }

    private static final List<Piece> VALUES = List.of(
            new Piece("?", 1),
            new Piece("'a?b'", 0),
            new Piece("(SELECT max(v) FROM w WHERE k = ?)", 1),
            new Piece("coalesce(?, 0) + ?", 2),
            new Piece("a /* ? */ + 1", 0),
            new Piece("CASE WHEN b > ? THEN 'x' ELSE ? END", 2),
            new Piece("lower(name)", 0));

    private static final List<Piece> CONDITIONS = List.of(
            new Piece("c = ?", 1),
            new Piece("d IN (SELECT x FROM y WHERE z = ? AND q IN (SELECT r FROM s WHERE u = ?))", 2),
            new Piece("e = 'it''s ?'", 0),
            new Piece("f BETWEEN ? AND ?", 2),
            new Piece("g IS NULL", 0),
            new Piece("(h = ? OR EXISTS (SELECT 1 FROM v WHERE v.id = t.id))", 1));

    @Provide
    Arbitrary<List<Piece>> values() {
        return Arbitraries.of(VALUES).list().ofMinSize(1).ofMaxSize(5);
    }

    @Provide
    Arbitrary<List<Piece>> conditions() {
        return Arbitraries.of(CONDITIONS).list().ofMinSize(0).ofMaxSize(4);
    }

    @Property(tries = 150)
    void updateClausesNumberTheirParametersInSourceOrder(@ForAll("values") List<Piece> values,
                                                         @ForAll("conditions") List<Piece> conditions,
                                                         @ForAll("dialects") Dialect dialect) {
        List<String> sets = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) sets.add("c" + i + " = " + values.get(i).sql());
        String where = String.join(" AND ", conditions.stream().map(Piece::sql).toList());
        String sql = "UPDATE t SET " + String.join(", ", sets) + (where.isEmpty() ? "" : " WHERE " + where);

        Dml d = Analyses.dml(sql, dialect);

        int next = 1;
        for (int i = 0; i < values.size(); i++) {
            Assignment a = d.assignments().get(i);
            assertThat(a.column()).isEqualTo(new ColumnRef("c" + i, false));
            assertThat(a.value().text()).isEqualTo(values.get(i).sql());
            assertThat(a.value().parameters()).isEqualTo(range(next, values.get(i).parameters()));
            next += values.get(i).parameters();
        }
        int setCount = next - 1;
        int whereCount = conditions.stream().mapToInt(Piece::parameters).sum();
        assertThat(d.setParameters()).isEqualTo(range(1, setCount));
        assertThat(d.whereText()).isEqualTo(where.isEmpty() ? null : where);
        assertThat(d.whereParameters()).isEqualTo(range(setCount + 1, whereCount));
        assertThat(d.parameterCount()).isEqualTo(setCount + whereCount);
    }

    @Property(tries = 100)
    void insertRowsNumberTheirParametersRowByRow(@ForAll("values") List<Piece> firstRow,
                                                 @ForAll("values") List<Piece> secondRow,
                                                 @ForAll("dialects") Dialect dialect) {
        int width = Math.min(firstRow.size(), secondRow.size());
        List<List<Piece>> rows = List.of(firstRow.subList(0, width), secondRow.subList(0, width));
        StringBuilder sql = new StringBuilder("INSERT INTO t VALUES ");
        for (List<Piece> row : rows) {
            if (row != rows.get(0)) sql.append(", ");
            sql.append('(').append(String.join(", ", row.stream().map(Piece::sql).toList())).append(')');
        }

        Dml d = Analyses.dml(sql.toString(), dialect);

        InsertSource.Values values = (InsertSource.Values) d.insertSource();
        int next = 1;
        for (int r = 0; r < rows.size(); r++) {
            for (int c = 0; c < width; c++) {
                Piece p = rows.get(r).get(c);
                assertThat(values.rows().get(r).get(c)).isEqualTo(new SqlFragment(p.sql(), range(next, p.parameters())));
                next += p.parameters();
            }
        }
        assertThat(d.parameterCount()).isEqualTo(next - 1);
    }

    private static List<Integer> range(int first, int count) {
        return IntStream.range(first, first + count).boxed().toList();
    }

    @Provide
    Arbitrary<Dialect> dialects() {
        return Arbitraries.of(Dialect.all());
    }
}
