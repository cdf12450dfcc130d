package org.topupbatch.batch;

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
import java.util.Optional;
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
     * Checks a row's customer fields (trimmed, empty when absent) for a product of {@code brand};
     * empty when they fit, else the one reason to reject the row.
     */
    public Optional<String> check(String brand, String customerNo, String zone) {
        BrandRule rule = ruleFor(brand);
        if (!rule.customerNo().accepts(customerNo)) {
            return Optional.of("customer_no must be " + rule.customerNo().expectation());
        }
        boolean hasZone = zone != null && !zone.isEmpty();
        String name = normalize(brand);
        switch (rule.zonePresence()) {
            case REQUIRED -> {
                if (!hasZone) {
                    return Optional.of("customer_no_zone is required for " + name + ": "
                            + rule.zone().expectation());
                }
            }
            case FORBIDDEN -> {
                if (hasZone) {
                    return Optional.of("customer_no_zone must be empty for " + name);
                }
            }
            case OPTIONAL -> { }
        }
        if (hasZone && !rule.zone().accepts(zone)) {
            return Optional.of("customer_no_zone must be " + rule.zone().expectation());
        }
        return Optional.empty();
    }

    private static String normalize(String brand) {
        return brand == null ? "" : brand.trim().toUpperCase(Locale.ROOT);
    }

    private static BrandRule brandRule(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw new Problem(path, "must be a mapping with customer_no and zone");
        }
        allowOnly(node, path, Set.of("customer_no", "zone"));
        if (!node.hasNonNull("customer_no")) {
            throw new Problem(path, "customer_no is missing");
        }
        FieldRule customerNo = fieldRule(node.get("customer_no"), path + ".customer_no", Set.of());
        JsonNode zone = node.get("zone");
        if (zone == null || zone.isNull()) {
            return new BrandRule(customerNo, BrandRule.ZonePresence.FORBIDDEN, null);
        }
        String zonePath = path + ".zone";
        if (zone.isTextual()) {
            BrandRule.ZonePresence presence = presence(zone.asText(), zonePath);
            if (presence != BrandRule.ZonePresence.FORBIDDEN) {
                throw new Problem(zonePath, "a zone that is " + zone.asText()
                        + " needs a mapping with presence, pattern and description");
            }
            return new BrandRule(customerNo, presence, null);
        }
        if (!zone.isObject()) {
            throw new Problem(zonePath, "must be 'forbidden' or a mapping with presence, pattern and description");
        }
        allowOnly(zone, zonePath, Set.of("presence", "pattern", "description", "values", "prefixes", "example"));
        if (!zone.hasNonNull("presence")) {
            throw new Problem(zonePath, "presence (required, optional or forbidden) is missing");
        }
        BrandRule.ZonePresence presence = presence(zone.get("presence").asText(), zonePath + ".presence");
        if (presence == BrandRule.ZonePresence.FORBIDDEN) {
            return new BrandRule(customerNo, presence, null);
        }
        return new BrandRule(customerNo, presence, fieldRule(zone, zonePath, Set.of("presence")));
    }

    private static BrandRule.ZonePresence presence(String word, String path) {
        return switch (word.trim().toLowerCase(Locale.ROOT)) {
            case "required" -> BrandRule.ZonePresence.REQUIRED;
            case "optional" -> BrandRule.ZonePresence.OPTIONAL;
            case "forbidden" -> BrandRule.ZonePresence.FORBIDDEN;
            default -> throw new Problem(path, "'" + word + "' is not one of required, optional, forbidden");
        };
    }

    private static FieldRule fieldRule(JsonNode node, String path, Set<String> alsoAllowed) {
        if (!node.isObject()) {
            throw new Problem(path, "must be a mapping with pattern and description");
        }
        Set<String> allowed = new java.util.HashSet<>(Set.of("pattern", "description", "values", "prefixes", "example"));
        allowed.addAll(alsoAllowed);
        allowOnly(node, path, allowed);
        String regex = text(node, "pattern", path, true);
        Pattern pattern;
        try {
            pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new Problem(path + ".pattern", "not a valid regular expression: "
                    + e.getDescription() + " near index " + e.getIndex() + " of '" + regex + "'");
        }
        return new FieldRule(pattern, list(node, "values", path), list(node, "prefixes", path),
                text(node, "description", path, true), text(node, "example", path, false));
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
