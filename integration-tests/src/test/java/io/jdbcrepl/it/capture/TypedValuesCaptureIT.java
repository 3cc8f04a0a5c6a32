package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 3.2: each value keeps its type and round-trips losslessly. Random values of every common
 * PostgreSQL type, NULLs, 100 kB texts and 200 kB byte arrays are inserted, updated and deleted
 * through the driver; every image of every LCR, decoded with the driver's own LCR model, must equal
 * the values read back through raw JDBC ({@link ValueType#read}), and carry the expected type.
 * One property per type, so that a failure names its type, and one over whole rows.
 */
class TypedValuesCaptureIT {

    /** Column, SQL type, portable type. */
    static final String[][] COLUMNS = {
            {"c_int", "int", "INTEGER"}, {"c_bigint", "bigint", "INTEGER"}, {"c_smallint", "smallint", "INTEGER"},
            {"c_numeric", "numeric(30,10)", "DECIMAL"}, {"c_real", "real", "FLOAT"}, {"c_double", "double precision", "FLOAT"},
            {"c_bool", "boolean", "BOOLEAN"}, {"c_char", "char(5)", "STRING"}, {"c_varchar", "varchar(200)", "STRING"},
            {"c_text", "text", "STRING"}, {"c_date", "date", "DATE"}, {"c_time", "time(6)", "TIME"},
            {"c_ts", "timestamp(6)", "TIMESTAMP"}, {"c_tstz", "timestamptz(6)", "TIMESTAMPTZ"}, {"c_bytea", "bytea", "BINARY"},
            {"c_uuid", "uuid", "UUID"}, {"c_json", "json", "JSON"}, {"c_jsonb", "jsonb", "JSON"}};
    static final Map<String, ValueType> TYPES = new LinkedHashMap<>();

    static {
        TYPES.put("id", ValueType.INTEGER);
        for (String[] c : COLUMNS) TYPES.put(c[0], ValueType.ofLogName(c[2]));
    }

    private static final AtomicInteger IDS = new AtomicInteger();
    private static TestDatabase db;
    private static Connection capturing;
    private static Connection raw;

    @BeforeContainer
    static void database() throws SQLException {
        db = TestDatabase.create(Vendor.POSTGRESQL, "typed");
        raw = db.openRaw();
        StringBuilder ddl = new StringBuilder("CREATE TABLE typed (id int PRIMARY KEY");
        for (String[] c : COLUMNS) ddl.append(", ").append(c[0]).append(' ').append(c[1]);
        try (Statement s = raw.createStatement()) {
            s.execute(ddl.append(')').toString());
        }
        Properties p = db.credentials();
        p.setProperty("repl.node", CapturePair.NODE);
        capturing = DriverManager.getConnection(db.replUrl(), p);
    }

    @AfterContainer
    static void dropDatabase() throws SQLException {
        try {
            if (capturing != null) capturing.close();
            if (raw != null) raw.close();
        } finally {
            if (db != null) db.close();
        }
    }

    // ------------------------------------------------------------------ properties

    /** Not shrunk: the message lists every differing column, and the per-type properties shrink. */
    @Property(tries = 30, shrinking = ShrinkingMode.OFF)
    void wholeRows(@ForAll("rows") Map<String, Object> before, @ForAll("rows") Map<String, Object> after) throws SQLException {
        roundTrip(before, after);
    }

    @Property(tries = 30)
    void integer(@ForAll("c_int") Object before, @ForAll("c_int") Object after) throws SQLException {
        roundTrip("c_int", before, after);
    }

    @Property(tries = 30)
    void bigint(@ForAll("c_bigint") Object before, @ForAll("c_bigint") Object after) throws SQLException {
        roundTrip("c_bigint", before, after);
    }

    @Property(tries = 30)
    void smallint(@ForAll("c_smallint") Object before, @ForAll("c_smallint") Object after) throws SQLException {
        roundTrip("c_smallint", before, after);
    }

    @Property(tries = 30)
    void numeric(@ForAll("c_numeric") Object before, @ForAll("c_numeric") Object after) throws SQLException {
        roundTrip("c_numeric", before, after);
    }

    @Property(tries = 30)
    void real(@ForAll("c_real") Object before, @ForAll("c_real") Object after) throws SQLException {
        roundTrip("c_real", before, after);
    }

    @Property(tries = 30)
    void doublePrecision(@ForAll("c_double") Object before, @ForAll("c_double") Object after) throws SQLException {
        roundTrip("c_double", before, after);
    }

    @Property(tries = 30)
    void bool(@ForAll("c_bool") Object before, @ForAll("c_bool") Object after) throws SQLException {
        roundTrip("c_bool", before, after);
    }

    @Property(tries = 30)
    void fixedChar(@ForAll("c_char") Object before, @ForAll("c_char") Object after) throws SQLException {
        roundTrip("c_char", before, after);
    }

    @Property(tries = 30)
    void varchar(@ForAll("c_varchar") Object before, @ForAll("c_varchar") Object after) throws SQLException {
        roundTrip("c_varchar", before, after);
    }

    @Property(tries = 30)
    void text(@ForAll("c_text") Object before, @ForAll("c_text") Object after) throws SQLException {
        roundTrip("c_text", before, after);
    }

    @Property(tries = 30)
    void date(@ForAll("c_date") Object before, @ForAll("c_date") Object after) throws SQLException {
        roundTrip("c_date", before, after);
    }

    @Property(tries = 30)
    void time(@ForAll("c_time") Object before, @ForAll("c_time") Object after) throws SQLException {
        roundTrip("c_time", before, after);
    }

    @Property(tries = 30)
    void timestamp(@ForAll("c_ts") Object before, @ForAll("c_ts") Object after) throws SQLException {
        roundTrip("c_ts", before, after);
    }

    @Property(tries = 30)
    void timestampWithTimeZone(@ForAll("c_tstz") Object before, @ForAll("c_tstz") Object after) throws SQLException {
        roundTrip("c_tstz", before, after);
    }

    @Property(tries = 30)
    void bytea(@ForAll("c_bytea") Object before, @ForAll("c_bytea") Object after) throws SQLException {
        roundTrip("c_bytea", before, after);
    }

    @Property(tries = 30)
    void uuid(@ForAll("c_uuid") Object before, @ForAll("c_uuid") Object after) throws SQLException {
        roundTrip("c_uuid", before, after);
    }

    @Property(tries = 30)
    void json(@ForAll("c_json") Object before, @ForAll("c_json") Object after) throws SQLException {
        roundTrip("c_json", before, after);
    }

    @Property(tries = 30)
    void jsonb(@ForAll("c_jsonb") Object before, @ForAll("c_jsonb") Object after) throws SQLException {
        roundTrip("c_jsonb", before, after);
    }

    /**
     * The edge values of every type, each on its own (random generation may miss a particular one):
     * every value that does not round-trip is listed.
     */
    @Example
    void edgeValuesOfEveryType() {
        Object[][] cases = {
                {"c_int", Integer.MIN_VALUE}, {"c_int", Integer.MAX_VALUE}, {"c_int", 0},
                {"c_bigint", Long.MIN_VALUE}, {"c_bigint", Long.MAX_VALUE},
                {"c_smallint", Short.MIN_VALUE}, {"c_smallint", Short.MAX_VALUE},
                {"c_numeric", new BigDecimal("99999999999999999999.9999999999")},
                {"c_numeric", new BigDecimal("-0.0000000001")}, {"c_numeric", new BigDecimal("0")},
                {"c_numeric", new BigDecimal("12.5")},
                {"c_real", Float.NaN}, {"c_real", Float.POSITIVE_INFINITY}, {"c_real", Float.NEGATIVE_INFINITY},
                {"c_real", -0.0f}, {"c_real", 0.0f}, {"c_real", Float.MAX_VALUE}, {"c_real", Float.MIN_NORMAL},
                {"c_real", 0.1f}, {"c_real", 16777217.0f},
                {"c_double", Double.NaN}, {"c_double", Double.POSITIVE_INFINITY}, {"c_double", Double.NEGATIVE_INFINITY},
                {"c_double", -0.0}, {"c_double", 0.0}, {"c_double", Double.MAX_VALUE}, {"c_double", Double.MIN_NORMAL},
                {"c_double", 0.1}, {"c_double", 1e-300}, {"c_double", 9007199254740993.0},
                {"c_bool", true}, {"c_bool", false},
                {"c_char", ""}, {"c_char", "a"}, {"c_char", " a"}, {"c_char", "abcde"}, {"c_char", "ab   "},
                {"c_varchar", ""}, {"c_varchar", "trailing  "}, {"c_varchar", "\t\n'\"\\ é 日本 😀"},
                {"c_text", ""}, {"c_text", largeText(new Random(1), 100 * 1024)},
                {"c_date", LocalDate.of(1, 1, 1)}, {"c_date", LocalDate.of(9999, 12, 31)}, {"c_date", LocalDate.of(1970, 1, 1)},
                {"c_time", LocalTime.MIDNIGHT}, {"c_time", LocalTime.of(23, 59, 59, 999_999_000)},
                {"c_ts", LocalDateTime.of(1, 1, 1, 0, 0)}, {"c_ts", LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)},
                {"c_ts", LocalDateTime.of(1582, 10, 10, 12, 0)},
                {"c_tstz", OffsetDateTime.of(2024, 3, 31, 2, 30, 0, 1000, ZoneOffset.ofHoursMinutes(5, 45))},
                {"c_tstz", OffsetDateTime.of(1900, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHours(-14))},
                {"c_bytea", new byte[0]}, {"c_bytea", new byte[] {0, -1, 10, 13}},
                {"c_uuid", new UUID(0, 0)}, {"c_uuid", new UUID(-1, -1)},
                {"c_json", "{}"}, {"c_json", "{\"a\": 1, \"a\" : 2}"}, {"c_json", " [1, 2.50, \"\\u00e9\"] "},
                {"c_jsonb", "{\"b\": 1, \"a\": [1.50, null]}"}, {"c_jsonb", "\"\\ud83d\\ude00\""}};
        List<String> failures = new ArrayList<>();
        for (Object[] c : cases) {
            try {
                roundTrip((String) c[0], c[1], null);
                roundTrip((String) c[0], null, c[1]);
            } catch (AssertionError | SQLException e) {
                String value = c[1] instanceof String t && t.length() > 40 ? t.length() + " chars" : String.valueOf(c[1]);
                failures.add(c[0] + " = " + value + ": " + e.getMessage().replace("\n", " "));
            }
        }
        assertThat(failures).as("edge values that do not round-trip").isEmpty();
    }

    // ------------------------------------------------------------------ the round trip

    private void roundTrip(String column, Object before, Object after) throws SQLException {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put(column, before);
        Map<String, Object> a = new LinkedHashMap<>();
        a.put(column, after);
        roundTrip(b, a);
    }

    /**
     * Inserts {@code before} (other columns NULL), updates to {@code after}, deletes the row, all
     * through the driver; checks each LCR image against the row read back raw at that moment.
     */
    private void roundTrip(Map<String, Object> before, Map<String, Object> after) throws SQLException {
        int id = IDS.incrementAndGet();
        List<String> columns = new ArrayList<>(before.keySet());
        long position = lastPosition(); // a failed try (or shrinking) must not leave LCRs to the next one

        StringBuilder insert = new StringBuilder("INSERT INTO typed (id");
        for (String c : columns) insert.append(", ").append(c);
        insert.append(") VALUES (?").append(", ?".repeat(columns.size())).append(')');
        try (PreparedStatement ps = capturing.prepareStatement(insert.toString())) {
            ps.setInt(1, id);
            for (int i = 0; i < columns.size(); i++) bind(ps, i + 2, columns.get(i), before.get(columns.get(i)));
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        RowImage stored = readBack(id);
        assertInserted(stored, before);

        StringBuilder update = new StringBuilder("UPDATE typed SET ");
        for (int i = 0; i < columns.size(); i++) update.append(i == 0 ? "" : ", ").append(columns.get(i)).append(" = ?");
        update.append(" WHERE id = ?");
        try (PreparedStatement ps = capturing.prepareStatement(update.toString())) {
            for (int i = 0; i < columns.size(); i++) bind(ps, i + 1, columns.get(i), after.get(columns.get(i)));
            ps.setInt(columns.size() + 1, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        RowImage updated = readBack(id);

        try (PreparedStatement ps = capturing.prepareStatement("DELETE FROM typed WHERE id = ?")) {
            ps.setInt(1, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }

        // this row's LCRs only: jqwik may still be shrinking an earlier failure in another thread
        List<LoggedLcr> lcrs = ChangeLogReader.read(raw, "repl", position).stream()
                .filter(l -> Long.valueOf(id).equals((l.newValues() != null && l.newValues().has("id") ? l.newValues()
                        : l.oldValues()).get("id").value()))
                .toList();
        assertThat(lcrs).extracting(LoggedLcr::command).containsExactly("INSERT", "UPDATE", "DELETE");

        assertSame("new values of the INSERT", lcrs.get(0).newValues(), stored);
        RowImage oldExpected = new RowImage().put("id", stored.get("id"));
        RowImage newExpected = new RowImage();
        for (String c : columns) {
            oldExpected.put(c, stored.get(c));
            newExpected.put(c, updated.get(c));
        }
        assertSame("old values of the UPDATE", lcrs.get(1).oldValues(), oldExpected);
        assertSame("new values of the UPDATE", lcrs.get(1).newValues(), newExpected);
        assertSame("old values of the DELETE", lcrs.get(2).oldValues(), updated);
    }

    private static long lastPosition() throws SQLException {
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT coalesce(max(position), 0) FROM repl.repl_log")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The raw driver itself must have stored what was bound (else the test's generator is wrong, not the capture). */
    private static void assertInserted(RowImage stored, Map<String, Object> bound) {
        for (Map.Entry<String, Object> e : bound.entrySet()) {
            if (e.getValue() == null) assertThat(stored.get(e.getKey()).value()).as("%s stored NULL", e.getKey()).isNull();
        }
    }

    /** Equal column by column, with types: the LCR's (actual) vs what raw JDBC reads (expected). */
    private static void assertSame(String what, RowImage logged, RowImage expected) {
        assertThat(logged).as(what).isNotNull();
        assertThat(logged.asMap().keySet()).as(what + ": columns").containsExactlyElementsOf(expected.asMap().keySet());
        List<String> differences = new ArrayList<>();
        for (Map.Entry<String, TypedValue> e : expected.asMap().entrySet()) {
            TypedValue l = logged.get(e.getKey());
            if (!Replayer.normalized(l).equals(Replayer.normalized(e.getValue()))) {
                differences.add(e.getKey() + ": logged " + show(l) + ", read back " + show(e.getValue()));
            }
        }
        assertThat(differences).as(what + " (decoded from repl_log vs read back through raw JDBC)").isEmpty();
    }

    private static String show(TypedValue v) {
        Object value = v.value();
        String text;
        if (value instanceof byte[] b) {
            text = "byte[" + b.length + "] " + HexFormat.of().formatHex(b, 0, Math.min(b.length, 16));
        } else if (value instanceof String s && s.length() > 60) {
            text = "\"" + s.substring(0, 60) + "…\" (" + s.length() + " chars)";
        } else if (value instanceof String s) {
            text = "\"" + s + "\"";
        } else if (value instanceof BigDecimal d) {
            text = d.toPlainString() + " (scale " + d.scale() + ")";
        } else {
            text = String.valueOf(value);
        }
        return v.type().logName() + " " + text;
    }

    private static RowImage readBack(int id) throws SQLException {
        try (PreparedStatement ps = raw.prepareStatement("SELECT * FROM typed WHERE id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                RowImage row = new RowImage();
                int i = 1;
                for (Map.Entry<String, ValueType> e : TYPES.entrySet()) {
                    row.put(e.getKey(), e.getValue(), e.getValue().read(rs, i++));
                }
                return row;
            }
        }
    }

    private static void bind(PreparedStatement ps, int index, String column, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, switch (column) {
                case "c_uuid", "c_json", "c_jsonb" -> Types.OTHER;
                default -> TYPES.get(column).sqlType();
            });
            return;
        }
        switch (column) {
            case "c_int" -> ps.setInt(index, (Integer) value);
            case "c_bigint" -> ps.setLong(index, (Long) value);
            case "c_smallint" -> ps.setShort(index, (Short) value);
            case "c_numeric" -> ps.setBigDecimal(index, (BigDecimal) value);
            case "c_real" -> ps.setFloat(index, (Float) value);
            case "c_double" -> ps.setDouble(index, (Double) value);
            case "c_bool" -> ps.setBoolean(index, (Boolean) value);
            case "c_char", "c_varchar", "c_text" -> ps.setString(index, (String) value);
            case "c_bytea" -> ps.setBytes(index, (byte[]) value);
            case "c_json", "c_jsonb" -> ps.setObject(index, value, Types.OTHER);
            default -> ps.setObject(index, value); // java.time, UUID
        }
    }

    // ------------------------------------------------------------------ generators

    @Provide("rows")
    Arbitrary<Map<String, Object>> rows() {
        List<Arbitrary<Object>> parts = new ArrayList<>();
        for (String[] c : COLUMNS) parts.add(values(c[0]));
        return Arbitraries.just(0).flatMap(ignored -> combine(parts, 0, new LinkedHashMap<>()));
    }

    private static Arbitrary<Map<String, Object>> combine(List<Arbitrary<Object>> parts, int at, Map<String, Object> sofar) {
        if (at == parts.size()) return Arbitraries.just(sofar);
        return parts.get(at).flatMap(v -> {
            Map<String, Object> next = new LinkedHashMap<>(sofar);
            next.put(COLUMNS[at][0], v);
            return combine(parts, at + 1, next);
        });
    }

    @Provide("c_int") Arbitrary<Object> cInt() { return values("c_int"); }
    @Provide("c_bigint") Arbitrary<Object> cBigint() { return values("c_bigint"); }
    @Provide("c_smallint") Arbitrary<Object> cSmallint() { return values("c_smallint"); }
    @Provide("c_numeric") Arbitrary<Object> cNumeric() { return values("c_numeric"); }
    @Provide("c_real") Arbitrary<Object> cReal() { return values("c_real"); }
    @Provide("c_double") Arbitrary<Object> cDouble() { return values("c_double"); }
    @Provide("c_bool") Arbitrary<Object> cBool() { return values("c_bool"); }
    @Provide("c_char") Arbitrary<Object> cChar() { return values("c_char"); }
    @Provide("c_varchar") Arbitrary<Object> cVarchar() { return values("c_varchar"); }
    @Provide("c_text") Arbitrary<Object> cText() { return values("c_text"); }
    @Provide("c_date") Arbitrary<Object> cDate() { return values("c_date"); }
    @Provide("c_time") Arbitrary<Object> cTime() { return values("c_time"); }
    @Provide("c_ts") Arbitrary<Object> cTs() { return values("c_ts"); }
    @Provide("c_tstz") Arbitrary<Object> cTstz() { return values("c_tstz"); }
    @Provide("c_bytea") Arbitrary<Object> cBytea() { return values("c_bytea"); }
    @Provide("c_uuid") Arbitrary<Object> cUuid() { return values("c_uuid"); }
    @Provide("c_json") Arbitrary<Object> cJson() { return values("c_json"); }
    @Provide("c_jsonb") Arbitrary<Object> cJsonb() { return values("c_jsonb"); }

    /** Values for one column, NULL among them. */
    @SuppressWarnings("unchecked")
    static Arbitrary<Object> values(String column) {
        Arbitrary<?> a = switch (column) {
            case "c_int" -> Arbitraries.integers();
            case "c_bigint" -> Arbitraries.longs();
            case "c_smallint" -> Arbitraries.shorts();
            case "c_numeric" -> Arbitraries.bigDecimals()
                    .between(new BigDecimal("-99999999999999999999.9999999999"), new BigDecimal("99999999999999999999.9999999999"))
                    .ofScale(10);
            case "c_real" -> Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.floats()),
                    Tuple.of(1, Arbitraries.of(Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 1.1f,
                            Float.MAX_VALUE, -Float.MIN_NORMAL)));
            case "c_double" -> Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.doubles()),
                    Tuple.of(1, Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.1,
                            Double.MAX_VALUE, Double.MIN_NORMAL, 1e-300)));
            case "c_bool" -> Arbitraries.of(true, false);
            case "c_char" -> Arbitraries.strings().withChars("ab XYZé").ofMaxLength(5);
            case "c_varchar" -> text(200);
            case "c_text" -> Arbitraries.frequencyOf(Tuple.of(5, text(2000)),
                    Tuple.of(1, Arbitraries.randomValue(r -> largeText(r, 100 * 1024))));
            case "c_date" -> Arbitraries.longs().between(LocalDate.of(1, 1, 1).toEpochDay(), LocalDate.of(9999, 12, 31).toEpochDay())
                    .map(LocalDate::ofEpochDay);
            case "c_time" -> Arbitraries.longs().between(0, 86_400_000_000L - 1).map(us -> LocalTime.ofNanoOfDay(us * 1000));
            case "c_ts" -> timestamps(1, 9999);
            case "c_tstz" -> timestamps(1000, 9000).flatMap(t -> Arbitraries.integers().between(-14 * 60, 14 * 60)
                    .map(m -> OffsetDateTime.of(t, ZoneOffset.ofTotalSeconds(m * 60))));
            case "c_bytea" -> Arbitraries.frequencyOf(Tuple.of(5, Arbitraries.bytes().array(byte[].class).ofMaxSize(1000)),
                    Tuple.of(1, Arbitraries.randomValue(r -> {
                        byte[] b = new byte[200 * 1024];
                        r.nextBytes(b);
                        return b;
                    })));
            case "c_uuid" -> Arbitraries.randomValue(r -> new UUID(r.nextLong(), r.nextLong()));
            case "c_json", "c_jsonb" -> Arbitraries.randomValue(r -> json(r, 3));
            default -> throw new IllegalArgumentException(column);
        };
        return ((Arbitrary<Object>) a).injectNull(0.1);
    }

    private static Arbitrary<LocalDateTime> timestamps(int fromYear, int toYear) {
        long from = LocalDateTime.of(fromYear, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);
        long to = LocalDateTime.of(toYear, 12, 31, 23, 59, 59).toEpochSecond(ZoneOffset.UTC);
        return Arbitraries.longs().between(from, to).flatMap(s -> Arbitraries.integers().between(0, 999_999)
                .map(us -> LocalDateTime.ofEpochSecond(s, us * 1000, ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS)));
    }

    /** Text of code points from several scripts (ASCII, Latin-1, Cyrillic, CJK, emoji), tabs and newlines; no NUL. */
    static Arbitrary<String> text(int maxLength) {
        Arbitrary<Integer> codePoints = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.integers().between(0x20, 0x7e)),
                Tuple.of(1, Arbitraries.of(0x09, 0x0a, 0x0d, 0x27, 0x22, 0x5c)),
                Tuple.of(2, Arbitraries.integers().between(0xa0, 0x17f)),
                Tuple.of(1, Arbitraries.integers().between(0x400, 0x4ff)),
                Tuple.of(1, Arbitraries.integers().between(0x4e00, 0x4fff)),
                Tuple.of(1, Arbitraries.integers().between(0x1f600, 0x1f64f)));
        return codePoints.list().ofMaxSize(maxLength).map(cps -> {
            StringBuilder sb = new StringBuilder();
            for (int cp : cps) {
                if (sb.length() + Character.charCount(cp) > maxLength) break;
                sb.appendCodePoint(cp);
            }
            return sb.toString();
        });
    }

    private static String largeText(Random r, int bytes) {
        StringBuilder sb = new StringBuilder(bytes);
        String alphabet = "abcdefghijklmnopqrstuvwxyz ÄÖÜäöüß€\n\t'\"\\日本語";
        while (sb.toString().getBytes(StandardCharsets.UTF_8).length < bytes && sb.length() < bytes) {
            for (int i = 0; i < 4096; i++) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    /** A random JSON document as text, with irregular spacing (json keeps text as given, jsonb normalizes). */
    static String json(Random r, int depth) {
        int kind = depth == 0 ? r.nextInt(5) : r.nextInt(7);
        String space = r.nextBoolean() ? "" : " \n".substring(0, 1 + r.nextInt(2));
        return switch (kind) {
            case 0 -> "null";
            case 1 -> Boolean.toString(r.nextBoolean());
            case 2 -> r.nextBoolean() ? Long.toString(r.nextLong()) : (r.nextInt(2000) - 1000) + "." + r.nextInt(1000) + "e" + (r.nextInt(20) - 10);
            case 3, 4 -> jsonString(r);
            case 5 -> {
                StringBuilder sb = new StringBuilder("[");
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) sb.append(i > 0 ? "," + space : space).append(json(r, depth - 1));
                yield sb.append(space).append(']').toString();
            }
            default -> {
                StringBuilder sb = new StringBuilder("{");
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    sb.append(i > 0 ? "," : "").append(space).append(r.nextInt(3) == 0 ? "\"k\"" : jsonString(r))
                            .append(space).append(':').append(space).append(json(r, depth - 1));
                }
                yield sb.append(space).append('}').toString();
            }
        };
    }

    private static String jsonString(Random r) {
        String[] pieces = {"a", "Z", " ", "é", "日本", "\\\"", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00", "😀", "/", "\\/"};
        StringBuilder sb = new StringBuilder("\"");
        int n = r.nextInt(6);
        for (int i = 0; i < n; i++) sb.append(pieces[r.nextInt(pieces.length)]);
        return sb.append('"').toString();
    }
}
