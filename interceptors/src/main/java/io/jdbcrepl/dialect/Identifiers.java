package io.jdbcrepl.dialect;

/** Quoting of identifiers as written in SQL: {@code "x"} (standard), {@code `x`} (MySQL). */
public final class Identifiers {

    private Identifiers() {
    }

    public static boolean isQuoted(String identifier) {
        if (identifier == null || identifier.length() < 2) return false;
        char first = identifier.charAt(0);
        return (first == '"' || first == '`') && identifier.charAt(identifier.length() - 1) == first;
    }

    /** The identifier without its quotes, a doubled quote inside read as one. */
    public static String unquote(String identifier) {
        if (!isQuoted(identifier)) return identifier;
        String q = identifier.substring(0, 1);
        return identifier.substring(1, identifier.length() - 1).replace(q + q, q);
    }
}
