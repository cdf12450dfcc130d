package org.topupbatch.batch;

/** The customer rule of one brand; {@code zone} is null when the zone is forbidden. */
public record BrandRule(FieldRule customerNo, ZonePresence zonePresence, FieldRule zone) {

    public enum ZonePresence { REQUIRED, OPTIONAL, FORBIDDEN }
}
