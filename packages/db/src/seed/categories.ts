/**
 * The category table of the demo world. Synonyms are lower-case and singular (the resolver
 * singularises queries), and no synonym belongs to two categories, so resolution is unambiguous.
 * Popularity weighs how many businesses a category gets; the 12 most popular get guaranteed
 * coverage in the largest cities (see allocation.ts). Categories with popularity 0 exist for
 * registry imports only: the demo world never draws them.
 */
export interface DemoCategory {
  slug: string;
  name: string;
  /** Lower-case noun for sentences: "a dentist in Mumbai". */
  singular: string;
  /** schema.org LocalBusiness subtype; LocalBusiness/ProfessionalService when nothing closer exists. */
  schemaOrgType: string;
  synonyms: readonly string[];
  popularity: number;
}

export const CATEGORIES = [
  { slug: "restaurant", name: "Restaurant", singular: "restaurant", schemaOrgType: "Restaurant", popularity: 100, synonyms: ["eatery", "diner", "bistro", "dining", "food place"] },
  { slug: "dentist", name: "Dentist", singular: "dentist", schemaOrgType: "Dentist", popularity: 96, synonyms: ["dental clinic", "dental surgeon", "dentistry", "dental care", "dental practice", "tooth doctor"] },
  { slug: "doctor", name: "Doctor", singular: "doctor", schemaOrgType: "Physician", popularity: 94, synonyms: ["physician", "general practitioner", "gp", "family doctor", "medical clinic", "general physician"] },
  { slug: "plumber", name: "Plumber", singular: "plumber", schemaOrgType: "Plumber", popularity: 90, synonyms: ["plumbing", "plumbing service", "pipe fitter", "drain cleaning", "plumbing contractor"] },
  { slug: "electrician", name: "Electrician", singular: "electrician", schemaOrgType: "Electrician", popularity: 88, synonyms: ["electrical contractor", "electrical service", "wiring contractor", "electrical repair"] },
  { slug: "car-repair", name: "Car Repair Shop", singular: "car repair shop", schemaOrgType: "AutoRepair", popularity: 86, synonyms: ["auto repair", "mechanic", "car mechanic", "garage", "car service", "auto workshop", "car repair"] },
  { slug: "hair-salon", name: "Hair Salon", singular: "hair salon", schemaOrgType: "HairSalon", popularity: 84, synonyms: ["hairdresser", "hair stylist", "barber", "barbershop", "haircut"] },
  { slug: "lawyer", name: "Lawyer", singular: "lawyer", schemaOrgType: "Attorney", popularity: 82, synonyms: ["attorney", "advocate", "solicitor", "barrister", "law firm", "legal service", "legal advisor"] },
  { slug: "accountant", name: "Accountant", singular: "accountant", schemaOrgType: "AccountingService", popularity: 80, synonyms: ["chartered accountant", "cpa", "bookkeeper", "tax consultant", "accounting firm", "tax preparer"] },
  { slug: "real-estate-agent", name: "Real Estate Agent", singular: "real estate agent", schemaOrgType: "RealEstateAgent", popularity: 78, synonyms: ["realtor", "estate agent", "property dealer", "property agent", "real estate broker", "letting agent"] },
  { slug: "pharmacy", name: "Pharmacy", singular: "pharmacy", schemaOrgType: "Pharmacy", popularity: 76, synonyms: ["chemist", "drugstore", "medical store", "pharmacist", "chemist shop"] },
  { slug: "gym", name: "Gym", singular: "gym", schemaOrgType: "ExerciseGym", popularity: 74, synonyms: ["fitness center", "fitness centre", "health club", "fitness studio", "workout gym"] },
  { slug: "cafe", name: "Cafe", singular: "cafe", schemaOrgType: "CafeOrCoffeeShop", popularity: 70, synonyms: ["coffee shop", "coffee house", "espresso bar", "tea house"] },
  { slug: "bakery", name: "Bakery", singular: "bakery", schemaOrgType: "Bakery", popularity: 58, synonyms: ["cake shop", "patisserie", "bread shop", "baker"] },
  { slug: "hotel", name: "Hotel", singular: "hotel", schemaOrgType: "Hotel", popularity: 66, synonyms: ["lodging", "guest house", "accommodation", "boutique hotel"] },
  { slug: "veterinarian", name: "Veterinarian", singular: "veterinarian", schemaOrgType: "VeterinaryCare", popularity: 56, synonyms: ["vet", "animal hospital", "pet clinic", "veterinary clinic", "veterinary surgeon"] },
  { slug: "beauty-salon", name: "Beauty Salon", singular: "beauty salon", schemaOrgType: "BeautySalon", popularity: 60, synonyms: ["beauty parlour", "beauty parlor", "beautician", "nail salon", "makeup studio"] },
  { slug: "spa", name: "Spa", singular: "spa", schemaOrgType: "DaySpa", popularity: 42, synonyms: ["day spa", "massage", "massage center", "wellness centre", "wellness center"] },
  { slug: "optician", name: "Optician", singular: "optician", schemaOrgType: "Optician", popularity: 44, synonyms: ["optometrist", "eyewear store", "spectacles shop", "eye test", "optical store"] },
  { slug: "physiotherapist", name: "Physiotherapist", singular: "physiotherapist", schemaOrgType: "Physiotherapy", popularity: 46, synonyms: ["physio", "physical therapist", "physical therapy", "physiotherapy clinic"] },
  { slug: "dermatologist", name: "Dermatologist", singular: "dermatologist", schemaOrgType: "Physician", popularity: 40, synonyms: ["skin doctor", "skin specialist", "skin clinic", "dermatology clinic"] },
  { slug: "pediatrician", name: "Pediatrician", singular: "pediatrician", schemaOrgType: "Physician", popularity: 38, synonyms: ["paediatrician", "child specialist", "children's doctor", "pediatric clinic"] },
  { slug: "psychologist", name: "Psychologist", singular: "psychologist", schemaOrgType: "MedicalBusiness", popularity: 36, synonyms: ["therapist", "counsellor", "counselor", "psychotherapist", "counselling service"] },
  { slug: "hospital", name: "Hospital", singular: "hospital", schemaOrgType: "Hospital", popularity: 34, synonyms: ["medical center", "medical centre", "emergency room", "nursing home"] },
  { slug: "locksmith", name: "Locksmith", singular: "locksmith", schemaOrgType: "Locksmith", popularity: 32, synonyms: ["lock repair", "key cutting", "lockout service", "key maker"] },
  { slug: "painter", name: "Painter", singular: "painter", schemaOrgType: "HousePainter", popularity: 36, synonyms: ["house painter", "painting contractor", "painter and decorator", "wall painting"] },
  { slug: "roofer", name: "Roofer", singular: "roofer", schemaOrgType: "RoofingContractor", popularity: 28, synonyms: ["roofing contractor", "roof repair", "roofing company", "gutter repair"] },
  { slug: "carpenter", name: "Carpenter", singular: "carpenter", schemaOrgType: "HomeAndConstructionBusiness", popularity: 34, synonyms: ["joiner", "woodworker", "furniture maker", "carpentry"] },
  { slug: "general-contractor", name: "General Contractor", singular: "general contractor", schemaOrgType: "GeneralContractor", popularity: 40, synonyms: ["builder", "construction company", "home renovation", "remodeler", "building contractor"] },
  { slug: "hvac-contractor", name: "HVAC Contractor", singular: "HVAC contractor", schemaOrgType: "HVACBusiness", popularity: 30, synonyms: ["hvac", "air conditioning repair", "ac repair", "heating contractor", "ac service"] },
  { slug: "moving-company", name: "Moving Company", singular: "moving company", schemaOrgType: "MovingCompany", popularity: 30, synonyms: ["mover", "packers and movers", "removals", "removalist", "relocation service"] },
  { slug: "cleaning-service", name: "Cleaning Service", singular: "cleaning service", schemaOrgType: "HomeAndConstructionBusiness", popularity: 38, synonyms: ["house cleaning", "cleaner", "maid service", "janitorial service", "deep cleaning"] },
  { slug: "pest-control", name: "Pest Control Service", singular: "pest control service", schemaOrgType: "HomeAndConstructionBusiness", popularity: 24, synonyms: ["exterminator", "termite control", "fumigation", "pest control"] },
  { slug: "laundry", name: "Laundry", singular: "laundry", schemaOrgType: "DryCleaningOrLaundry", popularity: 30, synonyms: ["dry cleaner", "laundromat", "laundry service", "dry cleaning"] },
  { slug: "florist", name: "Florist", singular: "florist", schemaOrgType: "Florist", popularity: 26, synonyms: ["flower shop", "flower delivery", "flower store", "bouquet shop"] },
  { slug: "pet-store", name: "Pet Store", singular: "pet store", schemaOrgType: "PetStore", popularity: 24, synonyms: ["pet shop", "pet supplies", "aquarium shop", "pet food store"] },
  { slug: "grocery-store", name: "Grocery Store", singular: "grocery store", schemaOrgType: "GroceryStore", popularity: 64, synonyms: ["supermarket", "grocer", "kirana store", "convenience store", "food market"] },
  { slug: "electronics-store", name: "Electronics Store", singular: "electronics store", schemaOrgType: "ElectronicsStore", popularity: 40, synonyms: ["electronics shop", "gadget store", "mobile phone shop", "computer store"] },
  { slug: "furniture-store", name: "Furniture Store", singular: "furniture store", schemaOrgType: "FurnitureStore", popularity: 30, synonyms: ["furniture shop", "furniture showroom", "home furnishings", "sofa store"] },
  { slug: "clothing-store", name: "Clothing Store", singular: "clothing store", schemaOrgType: "ClothingStore", popularity: 52, synonyms: ["boutique", "fashion store", "apparel store", "clothes shop", "garment store"] },
  { slug: "jewelry-store", name: "Jewelry Store", singular: "jewelry store", schemaOrgType: "JewelryStore", popularity: 32, synonyms: ["jeweller", "jeweler", "jewellery shop", "jewellery store", "goldsmith"] },
  { slug: "bookstore", name: "Bookstore", singular: "bookstore", schemaOrgType: "BookStore", popularity: 22, synonyms: ["book shop", "bookshop", "bookseller", "book store"] },
  { slug: "hardware-store", name: "Hardware Store", singular: "hardware store", schemaOrgType: "HardwareStore", popularity: 30, synonyms: ["hardware shop", "diy store", "home improvement store", "tool shop"] },
  { slug: "bike-shop", name: "Bike Shop", singular: "bike shop", schemaOrgType: "BikeStore", popularity: 18, synonyms: ["bicycle shop", "cycle store", "bicycle repair", "bike repair"] },
  { slug: "car-dealer", name: "Car Dealer", singular: "car dealer", schemaOrgType: "AutoDealer", popularity: 34, synonyms: ["car dealership", "auto dealer", "used car dealer", "car showroom"] },
  { slug: "car-wash", name: "Car Wash", singular: "car wash", schemaOrgType: "AutoWash", popularity: 24, synonyms: ["auto detailing", "car detailing", "car cleaning", "valeting"] },
  { slug: "tire-shop", name: "Tire Shop", singular: "tire shop", schemaOrgType: "TireShop", popularity: 20, synonyms: ["tyre shop", "tire dealer", "tyre dealer", "wheel alignment"] },
  { slug: "travel-agency", name: "Travel Agency", singular: "travel agency", schemaOrgType: "TravelAgency", popularity: 36, synonyms: ["travel agent", "tour operator", "holiday planner", "ticketing agent"] },
  { slug: "insurance-agency", name: "Insurance Agency", singular: "insurance agency", schemaOrgType: "InsuranceAgency", popularity: 34, synonyms: ["insurance agent", "insurance broker", "insurance advisor", "insurance company"] },
  { slug: "financial-advisor", name: "Financial Advisor", singular: "financial advisor", schemaOrgType: "FinancialService", popularity: 30, synonyms: ["financial planner", "wealth manager", "investment advisor", "financial adviser"] },
  { slug: "child-care", name: "Child Care Center", singular: "child care center", schemaOrgType: "ChildCare", popularity: 28, synonyms: ["daycare", "day care", "creche", "preschool", "childcare"] },
  { slug: "photographer", name: "Photographer", singular: "photographer", schemaOrgType: "ProfessionalService", popularity: 26, synonyms: ["photography studio", "photo studio", "wedding photographer", "portrait photographer"] },
  { slug: "event-planner", name: "Event Planner", singular: "event planner", schemaOrgType: "ProfessionalService", popularity: 22, synonyms: ["wedding planner", "event management", "event organiser", "event organizer"] },
  { slug: "web-designer", name: "Web Designer", singular: "web designer", schemaOrgType: "ProfessionalService", popularity: 24, synonyms: ["web design agency", "website developer", "web developer", "website designer"] },
  { slug: "architect", name: "Architect", singular: "architect", schemaOrgType: "ProfessionalService", popularity: 22, synonyms: ["architecture firm", "architectural designer", "architectural firm"] },
  { slug: "interior-designer", name: "Interior Designer", singular: "interior designer", schemaOrgType: "ProfessionalService", popularity: 24, synonyms: ["interior decorator", "interior design studio", "home stylist"] },
  { slug: "tailor", name: "Tailor", singular: "tailor", schemaOrgType: "ProfessionalService", popularity: 22, synonyms: ["alterations", "dressmaker", "seamstress", "bespoke tailor"] },
  { slug: "printing-service", name: "Printing Service", singular: "printing service", schemaOrgType: "ProfessionalService", popularity: 18, synonyms: ["print shop", "copy shop", "printing press", "printing company"] },
  { slug: "bar", name: "Bar", singular: "bar", schemaOrgType: "BarOrPub", popularity: 40, synonyms: ["pub", "tavern", "lounge bar", "cocktail bar", "wine bar"] },
  { slug: "fast-food", name: "Fast Food Restaurant", singular: "fast food restaurant", schemaOrgType: "FastFoodRestaurant", popularity: 50, synonyms: ["takeaway", "fast food", "burger joint", "quick service restaurant", "takeout"] },
  { slug: "ice-cream-shop", name: "Ice Cream Shop", singular: "ice cream shop", schemaOrgType: "IceCreamShop", popularity: 16, synonyms: ["ice cream parlour", "ice cream parlor", "gelateria", "gelato shop"] },
  { slug: "yoga-studio", name: "Yoga Studio", singular: "yoga studio", schemaOrgType: "SportsActivityLocation", popularity: 22, synonyms: ["yoga class", "yoga centre", "yoga center", "pilates studio"] },
  { slug: "self-storage", name: "Self Storage Facility", singular: "self storage facility", schemaOrgType: "SelfStorage", popularity: 14, synonyms: ["self storage", "storage unit", "storage facility", "warehouse storage"] },
  // Registry-only categories: real extracts (OpenStreetMap) hold these, the demo world does not.
  // Popularity 0 gives them no weight in the allocation and keeps them last by popularity, so the
  // demo world is generated exactly as before they existed (seed.test.ts checks it).
  { slug: "bank", name: "Bank", singular: "bank", schemaOrgType: "BankOrCreditUnion", popularity: 0, synonyms: ["credit union", "savings bank", "banking", "bank branch"] },
  { slug: "fuel-station", name: "Fuel Station", singular: "fuel station", schemaOrgType: "GasStation", popularity: 0, synonyms: ["gas station", "petrol station", "petrol pump", "filling station", "service station"] },
  { slug: "post-office", name: "Post Office", singular: "post office", schemaOrgType: "PostOffice", popularity: 0, synonyms: ["postal service", "postal office", "parcel office"] },
  { slug: "museum", name: "Museum", singular: "museum", schemaOrgType: "Museum", popularity: 0, synonyms: ["exhibition", "history museum", "art museum", "heritage centre"] },
  { slug: "cinema", name: "Cinema", singular: "cinema", schemaOrgType: "MovieTheater", popularity: 0, synonyms: ["movie theater", "movie theatre", "multiplex", "movie house"] },
  { slug: "campground", name: "Campground", singular: "campground", schemaOrgType: "Campground", popularity: 0, synonyms: ["campsite", "camp site", "camping", "caravan park", "rv park"] },
  { slug: "sports-store", name: "Sports Store", singular: "sports store", schemaOrgType: "SportingGoodsStore", popularity: 0, synonyms: ["sporting goods store", "sports shop", "ski shop", "outdoor store"] },
  { slug: "liquor-store", name: "Liquor Store", singular: "liquor store", schemaOrgType: "LiquorStore", popularity: 0, synonyms: ["wine shop", "off licence", "off license", "bottle shop", "beverage store", "wine merchant"] },
  { slug: "casino", name: "Casino", singular: "casino", schemaOrgType: "Casino", popularity: 0, synonyms: ["gaming hall", "gambling hall"] },
  { slug: "gift-shop", name: "Gift Shop", singular: "gift shop", schemaOrgType: "Store", popularity: 0, synonyms: ["souvenir shop", "gift store", "souvenir store"] },
  { slug: "art-gallery", name: "Art Gallery", singular: "art gallery", schemaOrgType: "ArtGallery", popularity: 0, synonyms: ["gallery", "art dealer", "art shop"] },
  { slug: "butcher", name: "Butcher", singular: "butcher", schemaOrgType: "Store", popularity: 0, synonyms: ["butchery", "butcher shop", "meat shop"] },
  { slug: "deli", name: "Deli", singular: "deli", schemaOrgType: "Store", popularity: 0, synonyms: ["delicatessen", "gourmet food store"] },
  { slug: "newsagent", name: "Newsagent", singular: "newsagent", schemaOrgType: "Store", popularity: 0, synonyms: ["newsstand", "news stand", "kiosk", "newspaper shop"] },
  { slug: "theatre", name: "Theatre", singular: "theatre", schemaOrgType: "PerformingArtsTheater", popularity: 0, synonyms: ["theater", "playhouse", "opera house"] },
  { slug: "zoo", name: "Zoo", singular: "zoo", schemaOrgType: "Zoo", popularity: 0, synonyms: ["zoological garden", "animal park", "wildlife park"] },
  { slug: "department-store", name: "Department Store", singular: "department store", schemaOrgType: "DepartmentStore", popularity: 0, synonyms: ["department shop"] },
  { slug: "car-rental", name: "Car Rental", singular: "car rental", schemaOrgType: "AutoRental", popularity: 0, synonyms: ["car hire", "rental car", "car rental agency"] },
  { slug: "funeral-home", name: "Funeral Home", singular: "funeral home", schemaOrgType: "LocalBusiness", popularity: 0, synonyms: ["funeral director", "funeral parlour", "funeral parlor", "undertaker"] },
  { slug: "music-store", name: "Music Store", singular: "music store", schemaOrgType: "MusicStore", popularity: 0, synonyms: ["music shop", "record store", "instrument shop", "musical instrument store"] },
] as const satisfies readonly DemoCategory[];

export type CategorySlug = (typeof CATEGORIES)[number]["slug"];

/** The categories every large city is guaranteed to have, most popular first. */
export const GUARANTEED_CATEGORY_COUNT = 12;

export function categoriesByPopularity(): DemoCategory[] {
  return [...CATEGORIES].sort((x, y) => y.popularity - x.popularity || x.slug.localeCompare(y.slug));
}
