package io.jdbcrepl.config;

import java.sql.SQLException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strict parsing of one value by its property's type. Anything not clearly meant is rejected:
 * {@code Boolean.parseBoolean("yes")} would have been false, here it is an error.
 */
final class Values {

    static final int MAX_APPLY_BATCH = 100_000;

    private static final Pattern SHORT_DURATION = Pattern.compile("(?i)([0-9]+)(ms|s|m|h|d)");
    private static final Pattern JAVA_NAME =
            Pattern.compile("(?:[\\p{L}_$][\\p{L}\\p{N}_$]*\\.)*[\\p{L}_$][\\p{L}\\p{N}_$]*");

    private Values() {}

    /**
     * The typed value: Boolean, Integer, Duration, the choice as declared (ENUM), List of
     * TablePattern (PATTERNS), List of String (NAMES), ColumnSet (COLUMNS), TableName (the
     * table keys) or String.
     */
    static Object parse(ReplProperty p, String key, String raw) throws SQLException {
        if (p == ReplProperty.LOG_KEY) {
            return LogSignature.of(raw); // checked for length, never echoed
        }
        if (p.isSecret()) {
            return raw; // a password is taken as it is, even empty, and never echoed
        }
        String v = raw.trim();
        if (v.isEmpty()) {
            throw ConfigErrors.badValue(key, raw, "a value is required");
        }
        switch (p.type()) {
            case BOOLEAN:
                if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
                    return Boolean.valueOf(v.equalsIgnoreCase("true"));
                }
                throw ConfigErrors.badValue(key, raw, "expected true or false");
            case INT:
                return parseInt(key, raw, v);
            case DURATION:
                return parseDuration(key, raw, v, p == ReplProperty.FK_RETRY);
            case ENUM:
                for (String choice : p.choices()) {
                    if (choice.equalsIgnoreCase(v)) {
                        return choice;
                    }
                }
                throw ConfigErrors.badValue(key, raw, "expected one of " + String.join(", ", p.choices()));
            case PATTERNS:
                return parsePatterns(key, raw, v);
            case NAMES:
                return parseNames(key, raw, v);
            case COLUMNS:
                return parseColumns(key, raw, v, p == ReplProperty.HANDLER_COLUMNS || p == ReplProperty.NOCOMPARE);
            case CLASS_NAME:
                if (!JAVA_NAME.matcher(v).matches()) {
                    throw ConfigErrors.badValue(key, raw, "expected a Java class name such as com.example.MyHandler");
                }
                return v;
            case LOCATION:
                return parseLocation(key, raw, v);
            default:
                return parseString(p, key, raw, v);
        }
    }

    private static Object parseString(ReplProperty p, String key, String raw, String v) throws SQLException {
        switch (p) {
            case NODE:
                if (!Identifiers.isName(v)) {
                    throw ConfigErrors.badValue(key, raw,
                            "a node name is letters, digits, _, $, # and -, without dots or spaces");
                }
                return v;
            case SCHEMA:
            case PEER_SCHEMA:
            case HANDLER_RESOLUTION:
            case TIMESTAMP:
                if (!Identifiers.isIdentifier(v)) {
                    throw ConfigErrors.badValue(key, raw, "expected one unquoted identifier");
                }
                return v;
            case HANDLER_TABLE:
            case DMLHANDLER_TABLE:
                try {
                    return TableName.parse(v);
                } catch (IllegalArgumentException e) {
                    throw ConfigErrors.badValue(key, raw, "expected schema.table or table: " + e.getMessage());
                }
            case PEER_URL:
                if (v.startsWith(ReplUrl.PREFIX)) {
                    throw ConfigErrors.badValue(key, ReplUrl.mask(raw), "a peer is read with its plain driver: write "
                            + ReplUrl.mask("jdbc:" + v.substring(ReplUrl.PREFIX.length())));
                }
                if (!v.startsWith("jdbc:") || v.indexOf(':', "jdbc:".length()) <= "jdbc:".length()) {
                    throw ConfigErrors.badValue(key, ReplUrl.mask(raw), "expected a JDBC URL jdbc:<subprotocol>:...");
                }
                return v;
            default:
                return v;
        }
    }

    private static Integer parseInt(String key, String raw, String v) throws SQLException {
        String why = "expected a whole number from 1 to " + MAX_APPLY_BATCH;
        if (!v.matches("[0-9]+")) {
            throw ConfigErrors.badValue(key, raw, why);
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= MAX_APPLY_BATCH) {
                return n;
            }
        } catch (NumberFormatException e) {
            // too large for an int: the same message
        }
        throw ConfigErrors.badValue(key, raw, why);
    }

    private static Duration parseDuration(String key, String raw, String v, boolean zeroAllowed) throws SQLException {
        String why = "expected a duration such as 500ms, 30s, 5m, 2h, 7d or PT30S"
                + (zeroAllowed ? ", not negative" : ", greater than zero");
        Duration d;
        try {
            Matcher m = SHORT_DURATION.matcher(v);
            if (m.matches()) {
                d = Duration.of(Long.parseLong(m.group(1)), unit(m.group(2)));
            } else if (v.startsWith("P") || v.startsWith("p")) {
                d = Duration.parse(v);
            } else {
                throw ConfigErrors.badValue(key, raw, why);
            }
        } catch (NumberFormatException | ArithmeticException | DateTimeParseException e) {
            throw ConfigErrors.badValue(key, raw, why);
        }
        if (d.isNegative() || (d.isZero() && !zeroAllowed)) {
            throw ConfigErrors.badValue(key, raw, why);
        }
        return d;
    }

    private static ChronoUnit unit(String u) {
        switch (u.toLowerCase(Locale.ROOT)) {
            case "ms":
                return ChronoUnit.MILLIS;
            case "s":
                return ChronoUnit.SECONDS;
            case "m":
                return ChronoUnit.MINUTES;
            case "h":
                return ChronoUnit.HOURS;
            default:
                return ChronoUnit.DAYS;
        }
    }

    private static List<TablePattern> parsePatterns(String key, String raw, String v) throws SQLException {
        List<TablePattern> out = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (String item : items(key, raw, v)) {
            try {
                out.add(TablePattern.parse(item));
            } catch (IllegalArgumentException e) {
                throw ConfigErrors.badValue(key, raw, e.getMessage());
            }
            noDuplicate(key, raw, seen, item);
        }
        return List.copyOf(out);
    }

    private static List<String> parseNames(String key, String raw, String v) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String item : items(key, raw, v)) {
            if (!Identifiers.isName(item)) {
                throw ConfigErrors.badValue(key, raw, "'" + item
                        + "' is not a node name (letters, digits, _, $, # and -, without dots or spaces)");
            }
            noDuplicate(key, raw, out, item);
        }
        return List.copyOf(out);
    }

    private static ColumnSet parseColumns(String key, String raw, String v, boolean starAllowed) throws SQLException {
        if (v.equals("*")) {
            if (!starAllowed) {
                throw ConfigErrors.badValue(key, raw, "expected column names, * is not allowed here");
            }
            return ColumnSet.STAR;
        }
        List<String> out = new ArrayList<>();
        for (String item : items(key, raw, v)) {
            if (!Identifiers.isIdentifier(item)) {
                throw ConfigErrors.badValue(key, raw, "'" + item + "' is not a column name"
                        + (item.equals("*") ? " (* stands alone)" : " (unquoted identifier)"));
            }
            noDuplicate(key, raw, out, item);
        }
        return ColumnSet.of(out);
    }

    /** Comma-separated items, trimmed; an empty item is an error, not something to skip. */
    private static List<String> items(String key, String raw, String v) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String item : v.split(",", -1)) {
            String t = item.trim();
            if (t.isEmpty()) {
                throw ConfigErrors.badValue(key, raw, "empty item in the comma-separated list");
            }
            out.add(t);
        }
        return out;
    }

    private static void noDuplicate(String key, String raw, List<String> seen, String item) throws SQLException {
        for (String s : seen) {
            if (Identifiers.same(s, item)) {
                throw ConfigErrors.badValue(key, raw, "'" + item + "' is listed twice");
            }
        }
        seen.add(item);
    }

    private static String parseLocation(String key, String raw, String v) throws SQLException {
        if ((v.startsWith("file:") && v.length() > "file:".length())
                || (v.startsWith("classpath:") && v.length() > "classpath:".length())) {
            return v;
        }
        throw ConfigErrors.badValue(key, raw, "expected file:/path/to/repl.properties or classpath:name");
    }
}
