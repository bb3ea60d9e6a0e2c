/** Local flavour for names and addresses: a Mumbai plumber is "Patil & Sons", not "Smith & Sons". */
export interface Locale {
  surnames: readonly string[];
  streets: readonly string[];
  streetSuffixes: readonly string[];
  districts: readonly string[];
}

const ENGLISH: Locale = {
  surnames: [
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Taylor",
    "Miller",
    "Wilson",
    "Davies",
    "Clarke",
    "Walker",
    "Harris",
    "Bennett",
    "Hughes",
    "Foster",
    "Reed",
  ],
  streets: ["Main", "High", "Church", "Park", "Oak", "Maple", "Victoria", "King", "Queen", "Station", "Mill", "Elm", "Cedar", "Market", "Bridge"],
  streetSuffixes: ["Street", "Road", "Avenue", "Lane", "Drive", "Boulevard"],
  districts: ["Downtown", "Old Town", "Riverside", "Northside", "Eastgate", "Westfield", "Hillside", "Harbourside", "Midtown"],
};

const SOUTH_ASIAN: Locale = {
  surnames: [
    "Kumar",
    "Sharma",
    "Patel",
    "Singh",
    "Reddy",
    "Iyer",
    "Gupta",
    "Rao",
    "Das",
    "Khan",
    "Mehta",
    "Nair",
    "Joshi",
    "Patil",
    "Chowdhury",
    "Banerjee",
    "Malik",
    "Qureshi",
  ],
  streets: ["MG", "Station", "Nehru", "Gandhi", "Link", "Temple", "Mall", "Lake", "Church", "Hill", "Market", "Ring", "Canal", "College"],
  streetSuffixes: ["Road", "Marg", "Street", "Lane", "Cross Road", "Main Road"],
  districts: ["Sector 12", "Old City", "Civil Lines", "Cantonment", "Model Town", "New Colony", "Market Area", "Station Area", "Industrial Estate"],
};

const CHINESE: Locale = {
  surnames: ["Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Lin", "Xu", "Sun", "Ma", "Guo"],
  streets: ["Renmin", "Zhongshan", "Jiefang", "Heping", "Nanjing", "Jianguo", "Changan", "Xinhua", "Dongfeng", "Huaihai"],
  streetSuffixes: ["Road", "Street", "Avenue", "Lu", "Jie"],
  districts: ["Central District", "East District", "Hi-Tech Zone", "Old Town", "Riverside", "New District"],
};

const JAPANESE: Locale = {
  surnames: ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura", "Kobayashi", "Kato", "Yoshida", "Yamada"],
  streets: ["Chuo", "Sakura", "Meiji", "Ekimae", "Honcho", "Midori", "Kasuga", "Asahi", "Nishiki", "Hikari"],
  streetSuffixes: ["Dori", "Street", "Avenue", "Chome"],
  districts: ["Chuo-ku", "Kita-ku", "Minami-ku", "Higashi-ku", "Nishi-ku", "Naka-ku"],
};

const KOREAN: Locale = {
  surnames: ["Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim", "Han", "Shin"],
  streets: ["Sejong", "Teheran", "Gangnam", "Jongno", "Hangang", "Dosan", "Eulji", "Mapo", "Yeouido", "Seocho"],
  streetSuffixes: ["ro", "gil", "daero", "Street"],
  districts: ["Jung-gu", "Gangnam-gu", "Seo-gu", "Dong-gu", "Nam-gu", "Buk-gu"],
};

const HISPANIC: Locale = {
  surnames: [
    "García",
    "Rodríguez",
    "López",
    "Martínez",
    "González",
    "Pérez",
    "Sánchez",
    "Ramírez",
    "Torres",
    "Flores",
    "Rivera",
    "Gómez",
    "Díaz",
    "Morales",
    "Castillo",
  ],
  streets: ["Reforma", "Independencia", "Libertad", "Bolívar", "San Martín", "Juárez", "Las Flores", "del Sol", "Colón", "Sucre", "Hidalgo", "Mayo"],
  streetSuffixes: ["Avenue", "Street", "Boulevard", "Road"],
  districts: ["Centro", "Zona Norte", "Zona Sur", "Barrio Alto", "Colonia Roma", "Las Lomas", "San José", "El Prado"],
};

const LUSOPHONE: Locale = {
  surnames: ["Silva", "Santos", "Oliveira", "Souza", "Pereira", "Costa", "Rodrigues", "Almeida", "Nascimento", "Lima", "Araújo", "Ferreira", "Carvalho"],
  streets: ["das Flores", "Paulista", "Brasil", "Independência", "Sete de Setembro", "Tiradentes", "Atlântica", "Getúlio Vargas", "São João", "da Liberdade"],
  streetSuffixes: ["Avenue", "Street", "Road"],
  districts: ["Centro", "Jardim América", "Vila Nova", "Boa Vista", "Santa Cruz", "Barra", "Liberdade"],
};

const RUSSIAN: Locale = {
  surnames: ["Ivanov", "Smirnov", "Kuznetsov", "Popov", "Sokolov", "Lebedev", "Kozlov", "Novikov", "Morozov", "Petrenko", "Kovalenko", "Bondarenko"],
  streets: ["Lenina", "Mira", "Sovetskaya", "Pushkina", "Gagarina", "Sadovaya", "Lesnaya", "Shevchenko", "Nevsky", "Tverskaya"],
  streetSuffixes: ["Street", "Prospekt", "Avenue", "Lane"],
  districts: ["Tsentralny", "Leninsky", "Oktyabrsky", "Kirovsky", "Sovetsky", "Zavodskoy"],
};

const TURKISH: Locale = {
  surnames: ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Yıldız", "Aydın", "Öztürk", "Arslan", "Doğan", "Kılıç", "Aslan"],
  streets: ["Atatürk", "İstiklal", "Cumhuriyet", "Bağdat", "Gazi", "Fevzi Çakmak", "Barbaros", "Millet", "Ankara", "Kıbrıs"],
  streetSuffixes: ["Caddesi", "Sokak", "Bulvarı", "Street"],
  districts: ["Merkez", "Kadıköy", "Çankaya", "Konak", "Beşiktaş", "Yenimahalle"],
};

const ARABIC: Locale = {
  surnames: ["Haddad", "Hassan", "Al-Sayed", "Mansour", "Khalil", "Nasser", "Saleh", "Farouk", "Abdullah", "Aziz", "Hamdan", "Al-Amin", "Rahman", "Othman"],
  streets: ["King Fahd", "Al Nasr", "Tahrir", "Al Jamhuriya", "Corniche", "Al Rashid", "Salah Al Din", "Al Wahda", "Hamra", "Sheikh Zayed"],
  streetSuffixes: ["Street", "Road", "Avenue"],
  districts: ["Al Olaya", "Downtown", "Al Malaz", "Zamalek", "Al Karada", "Deira", "Al Hamra", "Old City"],
};

const PERSIAN: Locale = {
  surnames: ["Hosseini", "Ahmadi", "Mohammadi", "Rezaei", "Karimi", "Moradi", "Jafari", "Rahimi", "Sadeghi", "Kazemi", "Amini", "Tehrani"],
  streets: ["Valiasr", "Enghelab", "Azadi", "Ferdowsi", "Hafez", "Saadi", "Shariati", "Jomhuri", "Keshavarz", "Motahari"],
  streetSuffixes: ["Street", "Avenue", "Boulevard"],
  districts: ["District 1", "District 3", "District 6", "Old Bazaar", "North", "Central"],
};

const WEST_AFRICAN: Locale = {
  surnames: ["Okafor", "Adeyemi", "Okonkwo", "Balogun", "Mensah", "Owusu", "Diallo", "Traoré", "Bello", "Eze", "Boateng", "Ndiaye", "Adebayo", "Koné"],
  streets: ["Marina", "Broad", "Independence", "Unity", "Ahmadu Bello", "Awolowo", "Liberation", "Market", "Airport", "Ring"],
  streetSuffixes: ["Road", "Street", "Avenue", "Way"],
  districts: ["Victoria Island", "Ikeja", "Osu", "Plateau", "Central Business District", "Old Town", "Cantonments"],
};

const EAST_AFRICAN: Locale = {
  surnames: [
    "Mwangi",
    "Otieno",
    "Kamau",
    "Wanjiru",
    "Njoroge",
    "Mohamed",
    "Tesfaye",
    "Bekele",
    "Haile",
    "Mutua",
    "Ochieng",
    "Kiprop",
    "Ndlovu",
    "Dlamini",
    "Nkosi",
  ],
  streets: ["Kenyatta", "Moi", "Uhuru", "Haile Selassie", "Bole", "Nyerere", "Mandela", "Jomo", "Harambee", "Mama Ngina"],
  streetSuffixes: ["Avenue", "Road", "Street", "Way"],
  districts: ["Westlands", "Kilimani", "Bole", "Upper Hill", "Central", "Old Town", "Sandton"],
};

const SOUTHEAST_ASIAN: Locale = {
  surnames: ["Nguyen", "Tran", "Le", "Santoso", "Wijaya", "Tan", "Lim", "Ng", "Reyes", "Cruz", "Bautista", "Somchai", "Rahman", "Pham", "Hidayat"],
  streets: ["Sudirman", "Thamrin", "Sukhumvit", "Rama IV", "Le Loi", "Nguyen Hue", "Orchard", "Ayala", "Rizal", "Merdeka", "Jalan Ampang"],
  streetSuffixes: ["Road", "Street", "Avenue", "Boulevard"],
  districts: ["Central", "Old Quarter", "Chinatown", "Business District", "Riverside", "Makati", "Menteng"],
};

const GERMANIC: Locale = {
  surnames: ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Hoffmann", "Schulz", "Andersson", "Lindqvist"],
  streets: ["Haupt", "Bahnhof", "Garten", "Schiller", "Goethe", "Linden", "Kirch", "Berg", "Wald", "Ring"],
  streetSuffixes: ["Strasse", "Weg", "Allee", "Gasse"],
  districts: ["Mitte", "Altstadt", "Neustadt", "Nord", "Süd", "Innere Stadt"],
};

const ROMANCE_EUROPEAN: Locale = {
  surnames: ["Martin", "Bernard", "Dubois", "Rossi", "Russo", "Ferrari", "Esposito", "Popescu", "Ionescu", "Kowalski", "Nowak", "Horváth", "Moreau", "Laurent"],
  streets: ["de la République", "Victor Hugo", "Garibaldi", "Roma", "Mazzini", "Unirii", "Victoriei", "Marszałkowska", "Andrássy", "Jean Jaurès"],
  streetSuffixes: ["Street", "Avenue", "Boulevard", "Road"],
  districts: ["Centre", "Vieux Quartier", "Centro Storico", "Old Town", "Nord", "Sud"],
};

const LOCALE_BY_COUNTRY: Readonly<Record<string, Locale>> = {
  IN: SOUTH_ASIAN,
  PK: SOUTH_ASIAN,
  BD: SOUTH_ASIAN,
  NP: SOUTH_ASIAN,
  LK: SOUTH_ASIAN,
  AF: PERSIAN,
  CN: CHINESE,
  TW: CHINESE,
  HK: CHINESE,
  SG: SOUTHEAST_ASIAN,
  JP: JAPANESE,
  KR: KOREAN,
  KP: KOREAN,
  MX: HISPANIC,
  AR: HISPANIC,
  CO: HISPANIC,
  PE: HISPANIC,
  CL: HISPANIC,
  VE: HISPANIC,
  EC: HISPANIC,
  CU: HISPANIC,
  DO: HISPANIC,
  PY: HISPANIC,
  ES: HISPANIC,
  BO: HISPANIC,
  GT: HISPANIC,
  UY: HISPANIC,
  BR: LUSOPHONE,
  PT: LUSOPHONE,
  AO: LUSOPHONE,
  MZ: LUSOPHONE,
  RU: RUSSIAN,
  UA: RUSSIAN,
  BY: RUSSIAN,
  KZ: RUSSIAN,
  UZ: RUSSIAN,
  TR: TURKISH,
  EG: ARABIC,
  SA: ARABIC,
  IQ: ARABIC,
  AE: ARABIC,
  SY: ARABIC,
  LB: ARABIC,
  JO: ARABIC,
  YE: ARABIC,
  MA: ARABIC,
  DZ: ARABIC,
  SD: ARABIC,
  LY: ARABIC,
  TN: ARABIC,
  KW: ARABIC,
  SO: ARABIC,
  IR: PERSIAN,
  NG: WEST_AFRICAN,
  GH: WEST_AFRICAN,
  CI: WEST_AFRICAN,
  SN: WEST_AFRICAN,
  GN: WEST_AFRICAN,
  CM: WEST_AFRICAN,
  ML: WEST_AFRICAN,
  BF: WEST_AFRICAN,
  CD: WEST_AFRICAN,
  KE: EAST_AFRICAN,
  ET: EAST_AFRICAN,
  TZ: EAST_AFRICAN,
  UG: EAST_AFRICAN,
  ZW: EAST_AFRICAN,
  ZA: EAST_AFRICAN,
  ZM: EAST_AFRICAN,
  ID: SOUTHEAST_ASIAN,
  MY: SOUTHEAST_ASIAN,
  TH: SOUTHEAST_ASIAN,
  VN: SOUTHEAST_ASIAN,
  PH: SOUTHEAST_ASIAN,
  MM: SOUTHEAST_ASIAN,
  KH: SOUTHEAST_ASIAN,
  DE: GERMANIC,
  AT: GERMANIC,
  CH: GERMANIC,
  SE: GERMANIC,
  NL: GERMANIC,
  FR: ROMANCE_EUROPEAN,
  IT: ROMANCE_EUROPEAN,
  RO: ROMANCE_EUROPEAN,
  PL: ROMANCE_EUROPEAN,
  HU: ROMANCE_EUROPEAN,
  BE: ROMANCE_EUROPEAN,
};

export function localeFor(countryCode: string): Locale {
  return LOCALE_BY_COUNTRY[countryCode] ?? ENGLISH;
}
