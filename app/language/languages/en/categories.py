"""English's categories and their instances: a question names a category ("what race", "which
dessert"), a statement an instance ("a half marathon", "a lemon tart"). `app.language.categories` reads
them. Plain words; PostgreSQL stems them. Kept general (hypernyms of common nouns), never grown from one
question's miss."""

from __future__ import annotations

_JOBS = (
    "job work career engineer developer programmer nurse teacher doctor manager designer lawyer accountant "
    "chef cook electrician plumber midwife scientist researcher professor consultant analyst architect "
    "mechanic firefighter paramedic therapist pharmacist barista baker writer artist photographer "
    "student intern promotion hired office company"
)
_PARTNER = "boyfriend girlfriend husband wife partner fiance fiancee dating married wedding engaged"
_HEALTH = "hospital doctor surgery operation er emergency physio injury injured broke stroke sick diagnosis"
_RACE = "marathon half-marathon 5k 10k triathlon ultramarathon duathlon relay regatta grand-prix fun-run"
_DESSERT = (
    "cake tart pie brownie brownies cookie cookies cupcake cupcakes pudding tiramisu cheesecake ice-cream "
    "gelato sorbet mousse pastry pastries crumble trifle macarons muffin muffins pavlova flan custard"
)
_MEAL = "breakfast brunch lunch dinner supper picnic barbecue bbq feast takeaway takeout"
_DISH = (
    "pasta pizza curry risotto lasagna lasagne paella stew soup salad sushi ramen tacos burrito dumplings "
    "noodles roast casserole omelette sandwich burger steak"
)
_DRINK = "coffee tea wine beer cocktail cocktails juice smoothie whisky whiskey gin espresso latte"
_GAME = "chess poker scrabble monopoly catan board-game videogame minecraft zelda fifa puzzle crossword"
_FILM = "film movie cinema documentary thriller comedy horror animation series episode sitcom"
_ART = "painting drawing sketch sculpture pottery ceramics watercolour watercolor mural canvas portrait"
_CRAFT = "knitting sewing crochet pottery woodwork carpentry embroidery quilting origami"
_PLACE = (
    "museum gallery park beach lake mountain forest river island village castle cathedral temple market "
    "zoo aquarium stadium theatre theater library cafe restaurant pub bar festival"
)
_PARTY = "party birthday wedding anniversary barbecue celebration reunion housewarming graduation shower"
_CLOTHES = "dress shirt jacket coat shoes boots trainers sneakers jeans scarf hat sweater jumper suit"
_SCHOOL = "school university college degree course class lecture exam thesis diploma masters phd"
_PLANT = "plant plants flowers roses tulips tomatoes herbs garden seedlings succulents orchid"
_TRANSPORT = "train flight plane bus ferry car taxi bike scooter drive"

CATEGORIES: dict[str, str] = {
    "job": _JOBS, "work": _JOBS, "living": _JOBS, "career": _JOBS, "occupation": _JOBS,
    "profession": _JOBS, "employ": _JOBS, "employed": _JOBS, "employer": "company firm office work",
    "vehicle": "car scooter moped motorcycle motorbike bike bicycle truck van suv campervan",
    "car": "car scooter truck van suv drive",
    "pet": "dog cat puppy kitten hamster rabbit parrot",
    "animal": "dog cat puppy kitten hamster rabbit parrot horse",
    "dog": "puppy retriever labrador terrier poodle beagle spaniel collie shepherd husky rescue",
    "cat": "kitten tabby rescue",
    "sport": "running marathon football soccer tennis basketball swimming climbing cycling yoga gym hiking "
             "rugby cricket golf volleyball badminton rowing surfing skiing boxing",
    "exercise": "running marathon gym yoga swimming cycling climbing",
    "race": _RACE, "competition": _RACE + " tournament contest championship",
    "hobby": "painting pottery reading hiking gardening cooking baking photography knitting climbing guitar",
    "instrument": "guitar piano violin drums cello flute saxophone ukulele",
    "music": "song band concert album guitar piano",
    "book": "novel author read reading memoir",
    "married": _PARTNER, "marry": _PARTNER, "wedding": _PARTNER, "engaged": _PARTNER, "spouse": _PARTNER,
    "partner": _PARTNER, "relationship": _PARTNER, "dating": _PARTNER, "single": _PARTNER,
    "kid": "son daughter twins baby boys girls children",
    "child": "son daughter twins baby boys girls kids",
    "children": "son daughter twins baby boys girls kids",
    "family": "mom mum dad mother father sister brother parents grandmother grandma grandfather grandpa "
              "aunt uncle cousin nephew niece son daughter wife husband kids children baby twins",
    "relative": "mom mum dad mother father sister brother aunt uncle cousin nephew niece grandma grandpa",
    "parent": "mom mum dad mother father",
    "city": "town live lives moved home",
    "live": "city town moved home apartment house",
    "hometown": "grew born city town",
    "health": _HEALTH, "sick": _HEALTH, "ill": _HEALTH, "injury": _HEALTH, "medical": _HEALTH,
    "emergency": "er hospital ambulance",
    "trip": "travel flight flew visit vacation holiday",
    "travel": "trip flight flew visit vacation holiday",
    "vacation": "trip holiday travel beach",
    "holiday": "trip vacation travel beach",
    "food": "eat cook dinner restaurant dish vegetarian vegan",
    "dessert": _DESSERT, "sweet": _DESSERT, "bake": _DESSERT + " bread sourdough loaf scones",
    "meal": _MEAL + " " + _DISH, "dish": _DISH, "drink": _DRINK,
    "diet": "vegetarian vegan meat eat",
    "house": "apartment flat bungalow cottage home",
    "study": _SCHOOL, "school": "university college degree course class", "education": _SCHOOL,
    "gift": "present gave bought", "present": "gift gave bought",
    "birthday": "birthday turns born",
    "furniture": "table chair desk shelf bed sofa bench wardrobe dresser",
    "friend": "friends buddy mate",
    "game": _GAME, "film": _FILM, "movie": _FILM, "show": "series episode sitcom documentary musical play",
    "art": _ART, "craft": _CRAFT, "place": _PLACE, "party": _PARTY, "celebration": _PARTY,
    "event": _PARTY + " concert festival conference match gig",
    "clothes": _CLOTHES, "clothing": _CLOTHES, "outfit": _CLOTHES,
    "plant": _PLANT, "garden": _PLANT, "transport": _TRANSPORT,
    "language": "english spanish french german italian portuguese japanese mandarin chinese arabic korean",
    "weather": "rain snow storm heatwave sunny wind fog",
}  # fmt: skip
