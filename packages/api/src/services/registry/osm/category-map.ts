/**
 * Which OSM elements are businesses, and in which category of our taxonomy
 * (packages/db/src/seed/categories.ts). One table, read top to bottom: a new mapping is one line.
 */

/** The keys that make a named element a business candidate, in the order they are tried. */
export const BUSINESS_KEYS = ["shop", "amenity", "craft", "office", "tourism", "healthcare"] as const;

/** "key=value" -> category slug. A value not listed here is reported as unmapped, never guessed. */
export const OSM_CATEGORY_TABLE: Readonly<Record<string, string>> = {
  // Food and drink
  "amenity=restaurant": "restaurant",
  "amenity=fast_food": "fast-food",
  "amenity=food_court": "fast-food",
  "amenity=cafe": "cafe",
  "amenity=bar": "bar",
  "amenity=pub": "bar",
  "amenity=biergarten": "bar",
  "amenity=nightclub": "bar",
  "amenity=ice_cream": "ice-cream-shop",
  "shop=ice_cream": "ice-cream-shop",
  "shop=bakery": "bakery",
  "shop=pastry": "bakery",
  "shop=confectionery": "bakery",
  // Groceries: a supermarket is a grocery store ("supermarket" is that category's synonym).
  "shop=supermarket": "grocery-store",
  "shop=convenience": "grocery-store",
  "shop=grocery": "grocery-store",
  "shop=greengrocer": "grocery-store",
  "shop=beverages": "liquor-store",
  "shop=wine": "liquor-store",
  "shop=alcohol": "liquor-store",
  // Lodging: guest houses, hostels, motels and staffed mountain huts all sell beds.
  "tourism=hotel": "hotel",
  "tourism=motel": "hotel",
  "tourism=guest_house": "hotel",
  "tourism=hostel": "hotel",
  "tourism=alpine_hut": "hotel",
  "tourism=chalet": "hotel",
  "tourism=apartment": "hotel",
  "tourism=apartments": "hotel",
  "tourism=camp_site": "campground",
  "tourism=caravan_site": "campground",
  "tourism=museum": "museum",
  "amenity=cinema": "cinema",
  // Culture and leisure
  "amenity=theatre": "theatre",
  "amenity=casino": "casino",
  "tourism=gallery": "art-gallery",
  "shop=art": "art-gallery",
  "tourism=zoo": "zoo",
  // Money, post, fuel
  "amenity=bank": "bank",
  "amenity=bureau_de_change": "financial-advisor",
  "amenity=post_office": "post-office",
  "amenity=fuel": "fuel-station",
  // Health
  "amenity=pharmacy": "pharmacy",
  "healthcare=pharmacy": "pharmacy",
  "shop=chemist": "pharmacy",
  "amenity=doctors": "doctor",
  "amenity=clinic": "doctor",
  "healthcare=doctor": "doctor",
  "healthcare=clinic": "doctor",
  "amenity=dentist": "dentist",
  "healthcare=dentist": "dentist",
  "amenity=hospital": "hospital",
  "healthcare=hospital": "hospital",
  "amenity=veterinary": "veterinarian",
  "healthcare=physiotherapist": "physiotherapist",
  "healthcare=psychotherapist": "psychologist",
  "healthcare=optometrist": "optician",
  "shop=optician": "optician",
  // Care and fitness
  "amenity=kindergarten": "child-care",
  "amenity=childcare": "child-care",
  "amenity=preschool": "child-care",
  "amenity=gym": "gym",
  "shop=hairdresser": "hair-salon",
  "shop=beauty": "beauty-salon",
  "shop=massage": "spa",
  "amenity=spa": "spa",
  // Shops
  "shop=clothes": "clothing-store",
  "shop=boutique": "clothing-store",
  "shop=fashion": "clothing-store",
  "shop=shoes": "clothing-store",
  "shop=jewelry": "jewelry-store",
  "shop=books": "bookstore",
  "shop=hardware": "hardware-store",
  "shop=doityourself": "hardware-store",
  "shop=electronics": "electronics-store",
  "shop=computer": "electronics-store",
  "shop=hifi": "electronics-store",
  "shop=mobile_phone": "electronics-store",
  "shop=furniture": "furniture-store",
  "shop=florist": "florist",
  "shop=garden_centre": "florist",
  "shop=pet": "pet-store",
  "shop=bicycle": "bike-shop",
  "shop=sports": "sports-store",
  "shop=outdoor": "sports-store",
  "shop=ski": "sports-store",
  "shop=car": "car-dealer",
  "shop=car_repair": "car-repair",
  "amenity=car_wash": "car-wash",
  "shop=tyres": "tire-shop",
  "shop=laundry": "laundry",
  "shop=dry_cleaning": "laundry",
  "shop=travel_agency": "travel-agency",
  "shop=photo": "photographer",
  "shop=photographer": "photographer",
  "shop=copyshop": "printing-service",
  "shop=printing": "printing-service",
  "shop=locksmith": "locksmith",
  "shop=gift": "gift-shop",
  "shop=butcher": "butcher",
  "shop=deli": "deli",
  "shop=newsagent": "newsagent",
  "shop=kiosk": "newsagent",
  "shop=department_store": "department-store",
  "shop=music": "music-store",
  "shop=musical_instrument": "music-store",
  "amenity=car_rental": "car-rental",
  "shop=funeral_directors": "funeral-home",
  "shop=storage_rental": "self-storage",
  "shop=estate_agent": "real-estate-agent",
  "shop=tailor": "tailor",
  // Trades (craft=*)
  "craft=plumber": "plumber",
  "craft=electrician": "electrician",
  "craft=carpenter": "carpenter",
  "craft=joiner": "carpenter",
  "craft=painter": "painter",
  "craft=roofer": "roofer",
  "craft=hvac": "hvac-contractor",
  "craft=locksmith": "locksmith",
  "craft=tailor": "tailor",
  "craft=dressmaker": "tailor",
  "craft=photographer": "photographer",
  "craft=bakery": "bakery",
  "craft=cleaning": "cleaning-service",
  "craft=builder": "general-contractor",
  "craft=printer": "printing-service",
  // Offices
  "office=lawyer": "lawyer",
  "office=notary": "lawyer",
  "office=accountant": "accountant",
  "office=tax_advisor": "accountant",
  "office=estate_agent": "real-estate-agent",
  "office=insurance": "insurance-agency",
  "office=financial": "financial-advisor",
  "office=financial_advisor": "financial-advisor",
  "office=architect": "architect",
  "office=travel_agent": "travel-agency",
  "office=moving_company": "moving-company",
  "office=event_management": "event-planner",
  "office=interior_design": "interior-designer",
  "office=photographer": "photographer",
};

/**
 * Street furniture and infrastructure: named or not, these are not businesses. A named one is
 * counted under "not a business"; it is not an unmapped category.
 */
export const NOT_BUSINESS_TAGS: ReadonlySet<string> = new Set([
  ...[
    "bench",
    "parking",
    "parking_space",
    "parking_entrance",
    "motorcycle_parking",
    "bicycle_parking",
    "waste_basket",
    "waste_disposal",
    "recycling",
    "post_box",
    "letter_box",
    "toilets",
    "drinking_water",
    "water_point",
    "watering_place",
    "telephone",
    "vending_machine",
    "shelter",
    "fountain",
    "atm",
    "clock",
    "bbq",
    "grit_bin",
    "hunting_stand",
    "charging_station",
    "compressed_air",
    "taxi",
    "bus_station",
    "ferry_terminal",
    "public_bookcase",
    "give_box",
    "photo_booth",
    "dog_toilet",
    "lounger",
    "bicycle_repair_station",
    "loading_dock",
    "car_sharing",
  ].map((value) => `amenity=${value}`),
  ...["information", "viewpoint", "picnic_site", "artwork"].map((value) => `tourism=${value}`),
]);

export type TagClass =
  /** A business: its category and the tag that decided it. */
  | { kind: "business"; category: string; tag: string }
  /** Street furniture or infrastructure. */
  | { kind: "not-business"; tag: string }
  /** A candidate whose tag the table does not map: reported by `tag`. */
  | { kind: "unmapped"; tag: string };

/**
 * What a named element is. null when it has none of the business keys (not a candidate). The
 * first key (in BUSINESS_KEYS order) whose value the table maps decides the category; if none
 * maps, the first tag that is not street furniture is reported as unmapped.
 */
export function classifyTags(tags: Readonly<Record<string, string>>): TagClass | null {
  let unmapped: string | undefined;
  let furniture: string | undefined;
  for (const key of BUSINESS_KEYS) {
    const value = tags[key];
    if (value === undefined || value === "" || value === "no") continue;
    const tag = `${key}=${value}`;
    const category = OSM_CATEGORY_TABLE[tag];
    if (category !== undefined) return { kind: "business", category, tag };
    if (NOT_BUSINESS_TAGS.has(tag)) furniture ??= tag;
    else unmapped ??= tag;
  }
  if (unmapped !== undefined) return { kind: "unmapped", tag: unmapped };
  if (furniture !== undefined) return { kind: "not-business", tag: furniture };
  return null;
}
