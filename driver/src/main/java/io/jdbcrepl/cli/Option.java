package io.jdbcrepl.cli;

/**
 * One {@code --name} option of a command: a flag when {@code valueName} is null, otherwise it
 * takes a value ({@code --name value} or {@code --name=value}); a repeatable one may be given
 * several times. One whose value is optional ({@code --watch [seconds]}) takes the next argument
 * only when that is no option: it is for commands without operands.
 */
record Option(String name, String valueName, String description, boolean required, boolean repeatable,
              boolean valueOptional) {

    Option(String name, String valueName, String description, boolean required) {
        this(name, valueName, description, required, false, false);
    }

    static final Option URL = new Option("--url", "jdbc:repl:url",
            "this node's jdbc:repl: URL; repl.* keys may be in its query string", true);
    static final Option USER = new Option("--user", "name", "database user", false);
    static final Option PASSWORD = new Option("--password", "secret",
            "database password (never printed)", false);
    static final Option JSON = new Option("--json", null, "print JSON instead of text", false);

    static Option flag(String name, String description) {
        return new Option(name, null, description, false);
    }

    static Option value(String name, String valueName, String description) {
        return new Option(name, valueName, description, false);
    }

    /** {@code --name [valueName]}: a flag that may be given a value. */
    static Option optionalValue(String name, String valueName, String description) {
        return new Option(name, valueName, description, false, false, true);
    }

    Option asRequired() {
        return new Option(name, valueName, description, true, repeatable, valueOptional);
    }

    Option asRepeatable() {
        return new Option(name, valueName, description, required, true, valueOptional);
    }

    boolean takesValue() {
        return valueName != null;
    }

    /** "--url <jdbc:repl:url>", bracketed when optional, for usage lines. */
    String synopsis() {
        String text = required ? label() : "[" + label() + "]";
        return repeatable ? text + "..." : text;
    }

    /** "--url <jdbc:repl:url>" or "--watch [seconds]" without outer brackets, for the option list. */
    String label() {
        if (!takesValue()) return name;
        return valueOptional ? name + " [" + valueName + "]" : name + " <" + valueName + ">";
    }
}
