package io.jdbcrepl.config;

import io.jdbcrepl.intercept.SqlState;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A {@code jdbc:repl:<rest>} URL split into the delegate's URL {@code jdbc:<rest>} and the
 * {@code repl.*} keys of its query string. The prefix is stripped once, at the start; the
 * delegate's own parameters are kept byte for byte, in order.
 */
public final class ReplUrl {

    public static final String PREFIX = "jdbc:repl:";

    private static final Pattern SUBPROTOCOL = Pattern.compile("[A-Za-z][A-Za-z0-9_+.-]*");
    /** {@code password=…} in a query string or an H2 {@code ;PASSWORD=…} setting: up to the next separator. */
    private static final Pattern SECRET_PARAM =
            Pattern.compile("(?i)((?:^|[?&;])[^=&;?/]*(?:password|pwd|log\\.key)[^=&;?/]*=)[^&;#]*");
    /**
     * MySQL/MariaDB host specifications: {@code address=(host=h)(password=…)} and
     * {@code (host=h,password=…)}: up to the closing parenthesis or the next pair.
     */
    private static final Pattern SECRET_HOST_PAIR =
            Pattern.compile("(?i)([(,]\\s*[^=&;?/(),]*(?:password|pwd)[^=&;?/(),]*=\\s*)[^),]*");
    /**
     * {@code //user:password@host}: the authority ends at '/', '?' or '#' (as Connector/J reads it), and
     * the password runs to its last '@', so {@code user:pa@ss@host} is masked whole.
     */
    private static final Pattern USER_INFO = Pattern.compile("(//[^/?#:@]*:)[^/?#]*@");

    private final String delegateUrl;
    private final String subprotocol;
    private final Map<String, String> replProperties;

    private ReplUrl(String delegateUrl, String subprotocol, Map<String, String> replProperties) {
        this.delegateUrl = delegateUrl;
        this.subprotocol = subprotocol;
        this.replProperties = replProperties;
    }

    /** "Can I parse it": the prefix, then a subprotocol and ':'. Never throws. */
    public static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX) && subprotocolOf(url.substring(PREFIX.length())) != null;
    }

    /**
     * @throws SQLException 08001 for a URL that is not {@code jdbc:repl:<subprotocol>:...}, 22023
     *     for a repl.* parameter with bad %-encoding or given twice
     */
    public static ReplUrl parse(String url) throws SQLException {
        if (!accepts(url)) {
            throw SqlState.UNABLE_TO_CONNECT.exception("Not a jdbc:repl URL: '" + (url == null ? null : mask(url))
                    + "'; expected jdbc:repl:<subprotocol>:..., for example jdbc:repl:postgresql://host/db");
        }
        String rest = url.substring(PREFIX.length());
        String subprotocol = subprotocolOf(rest);
        int q = rest.indexOf('?');
        misplacedSetting(q < 0 ? rest : rest.substring(0, q), url);
        if (q < 0) {
            return new ReplUrl("jdbc:" + rest, subprotocol, Map.of());
        }
        Map<String, String> repl = new LinkedHashMap<>();
        List<String> kept = new ArrayList<>();
        for (String param : rest.substring(q + 1).split("&", -1)) {
            if (param.isEmpty()) {
                continue;
            }
            int eq = param.indexOf('=');
            String rawName = eq < 0 ? param : param.substring(0, eq);
            String name = replName(rawName, url);
            if (name == null) {
                kept.add(param);
                continue;
            }
            String rawValue = eq < 0 ? "" : param.substring(eq + 1);
            String value;
            try {
                value = URLDecoder.decode(rawValue, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw SqlState.INVALID_PARAMETER_VALUE.exception(
                        "Bad %-encoding in the value of " + name + " in URL '" + mask(url) + "': "
                        + e.getMessage(), e);
            }
            if (repl.put(name, value) != null) {
                throw SqlState.INVALID_PARAMETER_VALUE.exception(name + " is given twice in URL '" + mask(url) + "'");
            }
        }
        if (repl.isEmpty()) {
            // nothing of ours: the delegate gets exactly what the application wrote
            return new ReplUrl("jdbc:" + rest, subprotocol, Map.of());
        }
        String base = "jdbc:" + rest.substring(0, q);
        String delegate = kept.isEmpty() ? base : base + "?" + String.join("&", kept);
        return new ReplUrl(delegate, subprotocol, Collections.unmodifiableMap(repl));
    }

    /**
     * A repl.* key written as a {@code ;key=value} setting (H2's and SQL Server's URL syntax) would
     * reach the real driver, which refuses it with a message about its own settings: say where it goes.
     */
    private static void misplacedSetting(String beforeQuery, String url) throws SQLException {
        int at = beforeQuery.toLowerCase(java.util.Locale.ROOT).indexOf(";repl.");
        if (at < 0) return;
        int end = at + 1;
        while (end < beforeQuery.length() && beforeQuery.charAt(end) != '=' && beforeQuery.charAt(end) != ';') end++;
        String key = beforeQuery.substring(at + 1, end);
        throw SqlState.UNABLE_TO_CONNECT.exception(
                key + " is written as a ;" + key + "=… setting in URL '" + mask(url) + "': repl.* keys go"
                + " in the query string (jdbc:repl:h2:mem:db;DB_CLOSE_DELAY=-1?repl.node=n1) or in the connect"
                + " Properties");
    }

    /** The decoded name when it is a repl.* key, else null (the delegate's, left untouched). */
    private static String replName(String rawName, String url) throws SQLException {
        try {
            String name = URLDecoder.decode(rawName, StandardCharsets.UTF_8);
            return name.startsWith("repl.") ? name : null;
        } catch (IllegalArgumentException e) {
            if (rawName.startsWith("repl")) {
                throw SqlState.INVALID_PARAMETER_VALUE.exception(
                        "Bad %-encoding in parameter name '" + rawName + "' in URL '" + mask(url)
                        + "': " + e.getMessage(), e);
            }
            return null; // the delegate's parameter: its driver judges it
        }
    }

    private static String subprotocolOf(String rest) {
        int colon = rest.indexOf(':');
        if (colon <= 0) {
            return null;
        }
        String sub = rest.substring(0, colon);
        return SUBPROTOCOL.matcher(sub).matches() ? sub : null;
    }

    /**
     * The URL with password-like parameter values ({@code password=}, {@code repl.peer.x.password=}, {@code repl.log.key=},
     * H2's {@code ;PASSWORD=}, MySQL's {@code (password=…)} host pairs) and {@code user:password@} user
     * info replaced by {@code ****}: every form the vendor drivers accept.
     */
    public static String mask(String url) {
        if (url == null) {
            return null;
        }
        String masked = SECRET_HOST_PAIR.matcher(url).replaceAll("$1" + ConfigErrors.MASK);
        masked = SECRET_PARAM.matcher(masked).replaceAll("$1" + ConfigErrors.MASK);
        return USER_INFO.matcher(masked).replaceAll("$1" + ConfigErrors.MASK + "@");
    }

    /** {@code jdbc:<rest>} without the repl.* parameters; no '?' when nothing is left. */
    public String delegateUrl() {
        return delegateUrl;
    }

    /** The URL-decoded repl.* keys of the query string, in URL order. */
    public Map<String, String> replProperties() {
        return replProperties;
    }

    /** The delegate's subprotocol: postgresql, mysql, mariadb, h2, ... */
    public String subprotocol() {
        return subprotocol;
    }

    @Override
    public String toString() {
        return "ReplUrl[" + mask(delegateUrl) + ", " + replProperties.keySet() + "]";
    }
}
