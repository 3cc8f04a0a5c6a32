package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.TestDatabases;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;
import org.postgresql.copy.PGCopyOutputStream;
import org.postgresql.core.BaseConnection;
import org.postgresql.jdbc.PgConnection;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PostgreSQL COPY … FROM into a replicated table, through pgjdbc's copy API (reached with {@code
 * unwrap}) and through SQL, is captured exactly: the LCRs are those the same rows inserted with INSERT
 * get, in the application's transaction; COPY into other tables and COPY … TO pass through as they are.
 */
class CopyCaptureIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    static final String ITEM = "CREATE TABLE item (id bigserial PRIMARY KEY, name text NOT NULL, qty int,"
            + " price numeric(10,2), note text, made timestamptz DEFAULT '2024-02-29 12:00:00+00', code varchar(8) DEFAULT 'x')";
    static final String SCRATCH = "CREATE TABLE scratch (id int PRIMARY KEY, v text)";
    static final Map<String, List<String>> KEYS = Map.of("item", List.of("id"));
    static final int ROWS = 400;

    private static CapturePair pair;

    @BeforeAll
    static void databases() throws SQLException {
        pair = CapturePair.create(DATABASES, "copy");
    }

    /** A row of the test data: NULLs in every nullable column now and then, non-ASCII text, escapes. */
    record Row(long id, String name, Integer qty, BigDecimal price, String note, String made, String code) {
    }

    static List<Row> rows(int n) {
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            rows.add(new Row(i, "nom " + i + " Zoë 日本語 🚀" + (i % 11 == 0 ? " back\\slash" : ""),
                    i % 5 == 0 ? null : i * 3 - 700,
                    i % 7 == 0 ? null : new BigDecimal(i).multiply(new BigDecimal("1.25")),
                    i % 3 == 0 ? null : i % 3 == 1 ? "" : "line\nbreak, \"quoted\"\ttab " + i,
                    "2025-0" + (1 + i % 9) + "-1" + (i % 10) + " 0" + (i % 10) + ":30:00+00", "c" + (i % 100)));
        }
        return rows;
    }

    /** COPY's text format, every column. */
    static String text(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        for (Row r : rows) {
            sb.append(r.id()).append('\t').append(escape(r.name())).append('\t').append(escape(r.qty())).append('\t')
                    .append(escape(r.price())).append('\t').append(escape(r.note())).append('\t').append(escape(r.made()))
                    .append('\t').append(escape(r.code())).append('\n');
        }
        return sb.toString();
    }

    private static String escape(Object v) {
        if (v == null) return "\\N";
        return v.toString().replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t");
    }

    /** CSV of name, qty, price, note: an empty unquoted field is NULL, "" the empty string. */
    static String csv(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        for (Row r : rows) {
            sb.append(quote(r.name())).append(',').append(quote(r.qty())).append(',').append(quote(r.price()))
                    .append(',').append(quote(r.note())).append('\n');
        }
        return sb.toString();
    }

    private static String quote(Object v) {
        return v == null ? "" : '"' + v.toString().replace("\"", "\"\"") + '"';
    }

    /** The same rows inserted with a batched INSERT through a capturing connection of another sandbox. */
    private static List<String> insertedByInsert(List<Row> rows, boolean allColumns) throws Exception {
        Sandbox reference = pair.sandbox(ITEM, SCRATCH);
        try (Connection c = reference.capturing(); PreparedStatement ps = c.prepareStatement(allColumns
                ? "INSERT INTO item VALUES (?, ?, ?, ?, ?, ?::timestamptz, ?)"
                : "INSERT INTO item (name, qty, price, note) VALUES (?, ?, ?, ?)")) {
            for (Row r : rows) {
                int p = 1;
                if (allColumns) ps.setLong(p++, r.id());
                ps.setString(p++, r.name());
                ps.setObject(p++, r.qty(), java.sql.Types.INTEGER);
                ps.setBigDecimal(p++, r.price());
                ps.setString(p++, r.note());
                if (allColumns) {
                    ps.setString(p++, r.made());
                    ps.setString(p, r.code());
                }
                ps.addBatch();
            }
            assertThat(ps.executeBatch()).hasSize(rows.size());
        }
        List<String> briefs = reference.briefs();
        assertThat(briefs).hasSize(rows.size());
        return briefs;
    }

    @Test
    void copyInFromAReaderLogsWhatInsertLogs() throws Exception {
        Sandbox box = pair.sandbox(ITEM, SCRATCH);
        List<Row> rows = rows(ROWS);
        box.compare((c, t) -> t.value("copyIn(sql, Reader)", () -> c.unwrap(PGConnection.class).getCopyAPI()
                .copyIn("COPY item FROM STDIN", new StringReader(text(rows)))));
        box.assertSameContents("item");
        assertThat(box.nodeContents("item")).hasSize(ROWS);
        assertThat(box.briefs()).as("LCRs of the COPY (actual) vs those of the same rows inserted by INSERT")
                .isEqualTo(insertedByInsert(rows, true));
        assertThat(box.log().stream().map(LoggedLcr::txId).distinct()).as("one transaction").hasSize(1);
        box.assertLogReplays(KEYS, "item");
    }

    @Test
    void copyInFromAnInputStreamInATransactionRollsBackAndCommitsWithIt() throws Exception {
        Sandbox box = pair.sandbox(ITEM, SCRATCH);
        List<Row> rows = rows(ROWS);
        byte[] data = csv(rows).getBytes(StandardCharsets.UTF_8);
        String copy = "COPY item (name, qty, price, note) FROM STDIN WITH (FORMAT csv, ENCODING 'UTF8')";
        box.compare((c, t) -> {
            c.setAutoCommit(false);
            CopyManager api = c.unwrap(PGConnection.class).getCopyAPI();
            t.value("copyIn, to be rolled back", () -> api.copyIn(copy, new ByteArrayInputStream(data)));
            c.rollback();
            t.value("rows after rollback", () -> count(c, "item"));
            t.value("copyIn(sql, InputStream, 100)", () -> api.copyIn(copy, new ByteArrayInputStream(data), 100));
            try (Statement s = c.createStatement()) {
                t.value("insert in the same transaction", () -> s.executeUpdate("INSERT INTO item (name) VALUES ('last')"));
            }
            c.commit();
            c.setAutoCommit(true);
        });
        box.assertSameContents("item");
        List<LoggedLcr> log = box.log();
        assertThat(log).hasSize(ROWS + 1);
        assertThat(log.stream().map(LoggedLcr::txId).distinct()).as("the COPY and the INSERT: one transaction").hasSize(1);
        assertThat(log.get(0).newValues().asMap()).as("defaults and generated keys are logged")
                .containsKeys("id", "made", "code");
        // the reference: the same rows through INSERT, after the same number of sequence values were used
        Sandbox reference = pair.sandbox(ITEM, SCRATCH);
        try (Connection c = reference.raw(); Statement s = c.createStatement()) {
            s.execute("SELECT setval('item_id_seq', " + ROWS + ")");
        }
        List<String> expected = new ArrayList<>();
        try (Connection c = reference.capturing(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO item (name, qty, price, note) VALUES (?, ?, ?, ?)")) {
            for (Row r : rows) {
                ps.setString(1, r.name());
                ps.setObject(2, r.qty(), java.sql.Types.INTEGER);
                ps.setBigDecimal(3, r.price());
                ps.setString(4, r.note());
                ps.addBatch();
            }
            ps.executeBatch();
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO item (name) VALUES ('last')");
            }
        }
        expected.addAll(reference.briefs());
        assertThat(box.briefs()).as("LCRs of the COPY (actual) vs those of the same rows inserted by INSERT")
                .isEqualTo(expected);
        box.assertLogReplays(KEYS, "item");
    }

    @Test
    void copyHandlesFromEveryEntryPointAreCaptured() throws Exception {
        Sandbox box = pair.sandbox(ITEM, SCRATCH);
        box.compare((c, t) -> {
            CopyIn handle = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY item (id, name) FROM STDIN");
            byte[] line = "1\tfrom a CopyIn handle\n2\tsecond\n".getBytes(StandardCharsets.UTF_8);
            handle.writeToCopy(line, 0, line.length);
            t.value("CopyIn.endCopy", handle::endCopy);
            t.value("CopyIn.getHandledRowCount", handle::getHandledRowCount);
            // Flyway's way: its own CopyManager over the unwrapped BaseConnection
            t.value("new CopyManager(unwrap(BaseConnection))", () -> new CopyManager(c.unwrap(BaseConnection.class))
                    .copyIn("COPY item (id, name) FROM STDIN", new StringReader("3\tflyway\n")));
            t.step("PGCopyOutputStream", () -> {
                try (PGCopyOutputStream out = new PGCopyOutputStream(c.unwrap(PGConnection.class),
                        "COPY item (id, name) FROM STDIN")) {
                    out.write("4\tstream\n".getBytes(StandardCharsets.UTF_8));
                }
            });
            CopyIn cancelled = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY item (id, name) FROM STDIN");
            cancelled.writeToCopy("5\tcancelled\n".getBytes(StandardCharsets.UTF_8), 0, 12);
            t.outcomeOf("cancelCopy", cancelled::cancelCopy);
            t.value("rows", () -> count(c, "item"));
            t.value("temporary tables left", () -> count(c, "pg_class WHERE relpersistence = 't'"));
            t.value("unwrap(PGConnection) is the unwrapped BaseConnection",
                    () -> c.unwrap(PGConnection.class) == c.unwrap(BaseConnection.class));
        });
        box.assertSameContents("item");
        assertThat(box.briefs()).hasSize(4).allSatisfy(b -> assertThat(b).startsWith("INSERT item new{"));
        box.assertLogReplays(KEYS, "item");
    }

    @Test
    void copyIntoATableThatIsNotReplicatedAndCopyToPassThrough() throws Exception {
        Sandbox box = pair.sandbox(ITEM, SCRATCH);
        box.seed("INSERT INTO item (name, qty, note) VALUES ('seed', 1, E'a\\tb'), ('two', NULL, NULL)");
        box.compare(Map.of("repl.exclude", "scratch"), (c, t) -> {
            CopyManager api = c.unwrap(PGConnection.class).getCopyAPI();
            t.value("copy into scratch", () -> api.copyIn("COPY scratch FROM STDIN", new StringReader("1\tx\n2\t\\N\n")));
            StringWriter out = new StringWriter();
            t.value("copy item to stdout", () -> api.copyOut("COPY item TO STDOUT", out));
            t.note("copied out", out.toString());
            StringWriter query = new StringWriter();
            t.value("copy (query) to stdout", () -> api.copyOut("COPY (SELECT id, name FROM item ORDER BY id) TO STDOUT"
                    + " WITH (FORMAT csv)", query));
            t.note("query copied out", query.toString());
        });
        box.assertSameContents("item", "scratch");
        assertThat(box.log()).as("nothing of scratch, nothing of a COPY … TO").isEmpty();
    }

    @Test
    void sqlCopyFromAProgramIsCapturedAndFromStdinIsRefusedWithTheWayOut() throws Exception {
        Sandbox box = pair.sandbox(ITEM, SCRATCH);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("COPY FROM PROGRAM", () -> s.executeUpdate("COPY item (name, qty) FROM PROGRAM"
                        + " 'seq 1 300 | sed -e ''s/.*/row &,&/''' WITH (FORMAT csv)"));
                t.value("execute COPY FROM PROGRAM", () -> s.execute("COPY item (name) FROM PROGRAM 'echo one; echo two'"));
                t.value("its update count", s::getUpdateCount);
            }
        });
        box.assertSameContents("item");
        assertThat(box.log()).hasSize(302);
        box.assertLogReplays(KEYS, "item");
        try (Connection c = box.capturing(); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("COPY item (name) FROM STDIN")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("getCopyAPI").hasMessageContaining("item")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(refusalState()));
            s.addBatch("INSERT INTO item (name) VALUES ('batched')");
            assertThatThrownBy(() -> s.addBatch("COPY item (name) FROM PROGRAM 'echo x'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("batch");
        }
        assertThat(box.log()).hasSize(302);
    }

    @Test
    void identityAndGeneratedColumnsAreFilledAsCopyFillsThem() throws Exception {
        Sandbox box = pair.sandbox("CREATE TABLE gen (id int GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, a int,"
                + " b int GENERATED ALWAYS AS (a * 2) STORED, c text DEFAULT 'd')",
                "CREATE TABLE always (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, a int)");
        box.compare((c, t) -> {
            CopyManager api = c.unwrap(PGConnection.class).getCopyAPI();
            t.value("without a column list: the identity from the file, b computed",
                    () -> api.copyIn("COPY gen FROM STDIN", new StringReader("100\t1\tx\n101\t\\N\t\\N\n")));
            t.value("with one: the identity generated", () -> api.copyIn("COPY gen (a) FROM STDIN", new StringReader("7\n8\n")));
            t.failure("a generated column", () -> api.copyIn("COPY gen (a, b) FROM STDIN", new StringReader("1\t2\n")));
            t.value("GENERATED ALWAYS, left to the table", () -> api.copyIn("COPY always (a) FROM STDIN", new StringReader("5\n")));
        });
        box.assertSameContents("gen", "always");
        assertThat(box.briefs()).hasSize(5).first().asString().contains("id=INTEGER:100", "b=INTEGER:2", "c=STRING:x");
        box.assertLogReplays(Map.of("gen", List.of("id"), "always", List.of("id")), "gen", "always");
        try (Connection c = box.capturing()) {
            assertThatThrownBy(() -> c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY always FROM STDIN",
                    new StringReader("9\t9\n"))).isInstanceOf(SQLException.class)
                    .hasMessageContaining("identity column id").hasMessageContaining("always")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(refusalState()));
        }
        assertThat(box.briefs()).as("the refused COPY loaded nothing").hasSize(5);
    }

    @Test
    void unwrapToPgjdbcsConnectionClassHandsOutTheRealConnectionAndSaysSo() throws Exception {
        Sandbox box = pair.sandbox(ITEM, SCRATCH);
        try (LogCapture log = LogCapture.start(); Connection c = box.capturing()) {
            PgConnection real = c.unwrap(PgConnection.class);
            assertThat(real.getClass()).isEqualTo(PgConnection.class);
            assertThat(log.text()).contains("unwrap(org.postgresql.jdbc.PgConnection)").contains("not captured");
            PGConnection view = c.unwrap(PGConnection.class);
            assertThat(view).isNotInstanceOf(PgConnection.class);
            assertThat(view.getBackendPID()).as("pgjdbc's own methods answer as pgjdbc").isEqualTo(real.getBackendPID());
            try (Statement s = ((Connection) view).createStatement()) {
                assertThat(s.executeUpdate("INSERT INTO item (name) VALUES ('through the view')")).isEqualTo(1);
            }
            assertThat(((Connection) view).unwrap(PGConnection.class)).isSameAs(view);
        }
        assertThat(box.briefs()).as("JDBC through the view is the capturing connection").hasSize(1);
    }

    /** The SQLState capture refusals carry (io.jdbcrepl.capture.CaptureException). */
    private static String refusalState() {
        return new io.jdbcrepl.capture.CaptureException("x").getSQLState();
    }

    private static long count(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
