package io.jdbcrepl.config;

import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Renders the catalogue as the README's markdown table. The README holds exactly this text
 * between its {@code <!-- properties:begin -->} and {@code <!-- properties:end -->} lines, and
 * a test keeps the two equal.
 */
public final class PropertyTable {

    private PropertyTable() {}

    /** The table, one row per key in key order, each line ending in '\n'. */
    public static String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("| key | type | default | since | description |\n");
        out.append("|---|---|---|---|---|\n");
        for (ReplProperty p : ReplProperty.values()) {
            out.append("| `").append(p.key()).append("` | ")
                    .append(type(p)).append(" | ")
                    .append(defaultCell(p)).append(" | ")
                    .append(p.since()).append(" | ")
                    .append(p.description()).append(" |\n");
        }
        return out.toString();
    }

    private static String type(ReplProperty p) {
        switch (p.type()) {
            case ENUM:
                return "one of " + p.choices().stream().map(c -> "`" + c + "`").collect(Collectors.joining(", "));
            case PATTERNS:
                return "table patterns";
            case NAMES:
                return "names";
            case COLUMNS:
                return p == ReplProperty.HANDLER_COLUMNS || p == ReplProperty.NOCOMPARE ? "columns or `*`" : "columns";
            case CLASS_NAME:
                return "class name";
            case LOCATION:
                return "`file:` or `classpath:` location";
            default:
                return p.type().name().toLowerCase(Locale.ROOT);
        }
    }

    private static String defaultCell(ReplProperty p) {
        if (p.defaultValue() != null) {
            return "`" + p.defaultValue() + "`";
        }
        return p.defaultText() != null ? p.defaultText() : "";
    }
}
