package org.topupbatch.intake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The operator-editable rules for customer_no and customer_no_zone, per brand of the price list
 * (the format is documented in the shipped {@code customer-rules.yaml}). Immutable, thread-safe.
 */
public final class CustomerRules {

    public static final String DEFAULT_RESOURCE = "customer-rules.yaml";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String FORBIDDEN_IS_GONE = "'forbidden' is no longer a choice: a zone written for a"
            + " product that uses none is sent as written and the provider decides; leave zone out for this brand";

    private final BrandRule defaultRule;
    private final Map<String, BrandRule> brands;

    private CustomerRules(BrandRule defaultRule, Map<String, BrandRule> brands) {
        this.defaultRule = defaultRule;
        this.brands = Map.copyOf(brands);
    }

    /** Reads an operator's rules file; a file that cannot be used throws {@link CustomerRulesException}. */
    public static CustomerRules load(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString());
        } catch (IOException e) {
            throw new CustomerRulesException("customer rules file " + file + ": cannot be read: " + e, e);
        }
    }

    /** The rules shipped with the product. */
    public static CustomerRules loadDefault() {
        try (InputStream in = CustomerRules.class.getClassLoader().getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the built-in " + DEFAULT_RESOURCE + " is missing from the class path");
            }
            return parse(in, "classpath:" + DEFAULT_RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static CustomerRules parse(InputStream in, String source) {
        JsonNode root;
        try {
            root = YAML.readTree(in);
        } catch (IOException e) {
            throw new CustomerRulesException("customer rules file " + source + ": not valid YAML: "
                    + e.getMessage(), e);
        }
        try {
            if (root == null || !root.isObject()) {
                throw new Problem("", "the file must be a mapping with 'default' and 'brands'");
            }
            allowOnly(root, "", Set.of("default", "brands"));
            if (!root.hasNonNull("default")) {
                throw new Problem("", "'default' (the rule for brands not listed) is missing");
            }
            BrandRule defaultRule = brandRule(root.get("default"), "default");
            Map<String, BrandRule> brands = new LinkedHashMap<>();
            JsonNode list = root.get("brands");
            if (list != null && !list.isNull()) {
                if (!list.isObject()) {
                    throw new Problem("brands", "must be a mapping of brand name to rule");
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = list.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    String brand = normalize(e.getKey());
                    if (brands.put(brand, brandRule(e.getValue(), "brands." + e.getKey())) != null) {
                        throw new Problem("brands." + e.getKey(), "brand " + brand + " is listed twice");
                    }
                }
            }
            return new CustomerRules(defaultRule, brands);
        } catch (Problem p) {
            throw new CustomerRulesException("customer rules file " + source + ": "
                    + (p.path.isEmpty() ? "" : p.path + ": ") + p.getMessage(), null);
        }
    }

    /** The rule for a brand of the price list; the default rule for brands not listed. */
    public BrandRule ruleFor(String brand) {
        return brand == null ? defaultRule : brands.getOrDefault(normalize(brand), defaultRule);
    }

    /**
     * Checks a row's customer fields (trimmed, empty when absent) for a product of {@code brand}:
     * a reason to reject only when no real customer could have written them, else the warnings.
     */
    public CustomerCheck check(String brand, String customerNo, String zone) {
        return ruleFor(brand).check(normalize(brand), customerNo, zone == null ? "" : zone);
    }

    private static String normalize(String brand) {
        return brand == null ? "" : brand.trim().toUpperCase(Locale.ROOT);
    }

    private static BrandRule brandRule(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw new Problem(path, "must be a mapping with customer_no and zone");
        }
        allowOnly(node, path, Set.of("customer_no", "zone", "strict"));
        if (!node.hasNonNull("customer_no")) {
            throw new Problem(path, "customer_no is missing");
        }
        FieldRule customerNo = fieldRule(node.get("customer_no"), path + ".customer_no", Set.of());
        boolean strict = flag(node, "strict", path);
        JsonNode zone = node.get("zone");
        String zonePath = path + ".zone";
        if (zone == null || zone.isNull()) {
            return new BrandRule(customerNo, BrandRule.ZonePresence.UNUSED, null, null, strict);
        }
        if (zone.isTextual() && isForbidden(zone.asText())) {
            throw new Problem(zonePath, FORBIDDEN_IS_GONE);
        }
        if (!zone.isObject()) {
            throw new Problem(zonePath, "must be a mapping with presence, pattern and description"
                    + " (leave zone out for a brand that uses none)");
        }
        if (!zone.hasNonNull("presence")) {
            throw new Problem(zonePath, "presence (required or optional) is missing");
        }
        BrandRule.ZonePresence presence = presence(zone.get("presence").asText(), zonePath + ".presence");
        Pattern inside = zone.hasNonNull("inside-customer-no")
                ? regex(text(zone, "inside-customer-no", zonePath, true), zonePath + ".inside-customer-no")
                : null;
        FieldRule zoneRule = fieldRule(zone, zonePath, Set.of("presence", "inside-customer-no"));
        return new BrandRule(customerNo, presence, zoneRule, inside, strict);
    }

    private static boolean isForbidden(String word) {
        return word.trim().equalsIgnoreCase("forbidden");
    }

    private static BrandRule.ZonePresence presence(String word, String path) {
        if (isForbidden(word)) {
            throw new Problem(path, FORBIDDEN_IS_GONE);
        }
        return switch (word.trim().toLowerCase(Locale.ROOT)) {
            case "required" -> BrandRule.ZonePresence.REQUIRED;
            case "optional" -> BrandRule.ZonePresence.OPTIONAL;
            default -> throw new Problem(path, "'" + word + "' is not one of required, optional");
        };
    }

    private static FieldRule fieldRule(JsonNode node, String path, Set<String> alsoAllowed) {
        if (!node.isObject()) {
            throw new Problem(path, "must be a mapping with pattern and description");
        }
        Set<String> allowed = new java.util.HashSet<>(
                Set.of("pattern", "description", "values", "prefixes", "example", "phone"));
        allowed.addAll(alsoAllowed);
        allowOnly(node, path, allowed);
        Pattern pattern = regex(text(node, "pattern", path, true), path + ".pattern");
        return new FieldRule(pattern, list(node, "values", path), list(node, "prefixes", path),
                text(node, "description", path, true), text(node, "example", path, false), flag(node, "phone", path));
    }

    /** '.' matches any character: a line separator inside a value is for the provider to judge. */
    private static Pattern regex(String regex, String path) {
        try {
            return Pattern.compile(regex, Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
            throw new Problem(path, "not a valid regular expression: "
                    + e.getDescription() + " near index " + e.getIndex() + " of '" + regex + "'");
        }
    }

    private static boolean flag(JsonNode node, String key, String path) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new Problem(path + "." + key, "must be true or false (found '" + value.asText() + "')");
        }
        return value.booleanValue();
    }

    private static String text(JsonNode node, String key, String path, boolean required) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            if (required) {
                throw new Problem(path, key + " is missing");
            }
            return null;
        }
        if (!value.isValueNode() || value.asText().isBlank()) {
            throw new Problem(path + "." + key, "must be a non-empty text");
        }
        return value.asText();
    }

    private static List<String> list(JsonNode node, String key, String path) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw new Problem(path + "." + key, "must be a list, e.g. ['0811', '0812']");
        }
        List<String> items = new ArrayList<>();
        for (JsonNode item : value) {
            if (item.isNumber()) {
                // YAML reads 0123 as the octal number 83: leading zeros must be quoted
                throw new Problem(path + "." + key, "write every item in quotes, e.g. '0811'"
                        + " (found the number " + item.asText() + ": unquoted numbers lose leading zeros)");
            }
            if (!item.isValueNode() || item.asText().isEmpty()) {
                throw new Problem(path + "." + key, "every item must be a non-empty text");
            }
            items.add(item.asText());
        }
        return items;
    }

    /** Unknown keys are mistakes (a misspelt "patern" would otherwise silently do nothing). */
    private static void allowOnly(JsonNode node, String path, Set<String> allowed) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!allowed.contains(key)) {
                throw new Problem(path, "unknown key '" + key + "' (allowed: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
        }
    }

    private static final class Problem extends RuntimeException {
        final String path;

        Problem(String path, String message) {
            super(message, null, false, false);
            this.path = path;
        }
    }
}
