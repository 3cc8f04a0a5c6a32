package io.jdbcrepl.config;

import java.util.Locale;
import java.util.regex.Pattern;

/** Unquoted SQL identifiers and node names: what they may contain and how they compare. */
final class Identifiers {

    /** An unquoted identifier: letters, digits, _, $ and # (Oracle, H2 and MLOG$_ names). */
    private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}\\p{N}_$#]+");
    /** A node, peer or handler name: like an identifier, plus '-', and never a dot. */
    private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N}_$#-]+");

    private Identifiers() {}

    static boolean isIdentifier(String s) {
        return s != null && IDENTIFIER.matcher(s).matches();
    }

    static boolean isName(String s) {
        return s != null && NAME.matcher(s).matches();
    }

    /** Folds an unquoted identifier the way the database does. */
    static String fold(String identifier, boolean foldsToUpper) {
        return foldsToUpper ? identifier.toUpperCase(Locale.ROOT) : identifier.toLowerCase(Locale.ROOT);
    }

    /** Two unquoted identifiers name the same object when they fold to the same text. */
    static boolean same(String a, String b, boolean foldsToUpper) {
        return fold(a, foldsToUpper).equals(fold(b, foldsToUpper));
    }

    /** Folding-independent comparison, for checks made before the database is known. */
    static boolean same(String a, String b) {
        return same(a, b, false) || same(a, b, true);
    }
}
