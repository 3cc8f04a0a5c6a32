package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SPEC 8.1 between two PostgreSQL databases: a table whose columns have the same types on both is
 * copied through COPY, and every value arrives as it was, down to its text (floats at their limits,
 * infinities, intervals written in another IntervalStyle, text with tabs, newlines and
 * backslashes, arrays, JSON, money, bytes); one whose types differ goes the portable way, to the
 * same rows.
 */
class JoinCopyIT {

    static final String COLUMNS = "id BIGINT PRIMARY KEY, i INT, s SMALLINT, f FLOAT8, r REAL, n NUMERIC(20, 6), t TEXT,"
            + " v VARCHAR(100), c CHAR(5), b BOOLEAN, d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, iv INTERVAL, m MONEY, by BYTEA,"
            + " u UUID, j JSONB, a INT[], tm TIME";

    /** The columns of the table copied the portable way: the types every database has. */
    static final String PORTABLE = "id BIGINT PRIMARY KEY, i INT, f FLOAT8, n NUMERIC(20, 6), t TEXT, v VARCHAR(100), b BOOLEAN,"
            + " ts TIMESTAMP, tz TIMESTAMPTZ, by BYTEA";

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @AfterEach
    void stop() {
        Repl.shutdown();
    }

    @Test
    void everyValueArrivesAsItWas() throws Exception {
        TestDatabase donor = databases.create(Vendor.POSTGRESQL, "join_copy_donor");
        TestDatabase joiner = databases.create(Vendor.POSTGRESQL, "join_copy_joiner");
        try (Connection c = donor.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE same (" + COLUMNS + ")");
            s.execute("CREATE TABLE differs (" + PORTABLE + ")");
            for (String table : List.of("same")) {
                s.execute("INSERT INTO " + table + " VALUES"
                        + " (1, -2147483648, 32767, 1e-300, 'NaN', 12345678901234.123456, E'tab\\there\\nnew line \\\\ back',"
                        + " 'ünïcödé ✓', 'ab', true, 'infinity', '-infinity', '2026-03-29 01:30:00+02',"
                        + " '-1 days +02:03:04.5', 1234.56, '\\x00ff0a5c', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',"
                        + " '{\"k\": [1, \"two\", null]}', '{1,NULL,-3}', '24:00:00'),"
                        + " (2, NULL, NULL, 'Infinity', -3.4e38, NULL, '', NULL, NULL, NULL, NULL, NULL, NULL,"
                        + " '-1 days -02:00:00', NULL, '', NULL, 'null', '{}', NULL),"
                        + " (3, 0, 0, 0.1, 0.1, -0.000001, 'NULL', '\\N', '     ', false, '0001-01-01', '2000-02-29 23:59:59.999999',"
                        + " '1970-01-01 00:00:00+00', 'P-1Y-2M3DT-4H-5M-6S', -0.01, NULL, NULL, '\"\\\\u0000 no\"', '{{1,2},{3,4}}', '00:00')");
                s.execute("INSERT INTO " + table + " SELECT g, g, g % 100, g / 7.0, g / 3.0, g * 1.5, 'row ' || g, 'v' || g, 'c',"
                        + " g % 2 = 0, date '2026-01-01' + g, timestamp '2026-01-01' + g * interval '1 minute',"
                        + " timestamptz '2026-01-01 00:00+00' + g * interval '1 second', g * interval '1 hour', g, "
                        + " int8send(g), md5(g::text)::uuid, jsonb_build_object('g', g), ARRAY[g, -g], time '00:00' + g * interval '1"
                        + " second' FROM generate_series(10, 5009) g");
            }
            s.execute("INSERT INTO differs SELECT id, i, f, n, t, v, b, ts, tz, by FROM same");
            // the donor writes intervals the SQL standard's way, which the joiner reads another way unless told
            s.execute("ALTER DATABASE " + donor.name() + " SET IntervalStyle = 'sql_standard'");
        }
        try (Connection c = joiner.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE same (" + COLUMNS + ")");
            // text instead of varchar: not the same types, the portable path
            s.execute("CREATE TABLE differs (" + PORTABLE.replace("v VARCHAR(100)", "v TEXT") + ")");
        }
        DriverManager.getConnection(donor.replUrl(Map.of("repl.node", "n1", "repl.apply", "false")), donor.credentials()).close();
        Map<String, String> p = new LinkedHashMap<>();
        p.put("repl.node", "n2");
        p.put("repl.peers", "n1");
        p.put("repl.apply", "false");
        p.putAll(donor.asPeer("n1"));
        try (Connection c = DriverManager.getConnection(joiner.replUrl(p), joiner.credentials())) {
            c.unwrap(ReplAdmin.class).join("n1");
        }
        for (String table : List.of("same", "differs")) {
            List<String> expected = rows(donor, table);
            assertThat(expected).hasSize(5003);
            assertThat(rows(joiner, table)).as(table).containsExactlyElementsOf(expected);
        }
    }

    /** Every row as PostgreSQL writes it as text, with one IntervalStyle. */
    static List<String> rows(TestDatabase db, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("SET IntervalStyle = 'postgres'");
            try (ResultSet rs = s.executeQuery("SELECT whole::text FROM " + table + " whole ORDER BY id")) {
                while (rs.next()) rows.add(rs.getString(1));
            }
        }
        return rows;
    }
}
