"""Nothing is dropped for its script: one ordinary statement in each of 36 languages, across every major
script, ingested as a chat message through HTTP, extracted by the worker's real loop, is a memory with its
text intact, and a question in the same language finds it through HTTP recall (lexical channel only, as
the suite runs: Thai, Lao, Khmer and Myanmar, written without spaces, meet their questions through
character bigrams).

The languages whose rules the service has (English, Spanish, German…) are read by them; every other is
detected by its script or by py3langid's full model and kept verbatim.
"""

from __future__ import annotations

import httpx

from app.language.detect import detect
from app.worker.runner import Worker

# (language, script, statement, a question in the same language that must find it in the top 3)
STATEMENTS = [
    ("es", "Latin", "Mi hermano Pablo vive en Sevilla y trabaja de carpintero.", "¿Dónde vive Pablo?"),
    ("de", "Latin", "Meine Schwester Anna arbeitet als Ärztin in Hamburg.", "Wo arbeitet Anna?"),
    ("fr", "Latin", "Mon cousin Julien habite à Marseille depuis trois ans.", "Où habite Julien ?"),
    ("pt", "Latin", "A minha tia Rosa mora em Coimbra e adora jardinagem.", "Onde mora a tia Rosa?"),
    ("it", "Latin", "Mio padre Giorgio lavora come cuoco a Napoli.", "Dove lavora Giorgio?"),
    ("nl", "Latin", "Mijn vriendin Sanne woont in Utrecht en studeert rechten.", "Waar woont Sanne?"),
    ("pl", "Latin", "Mój brat Tomasz mieszka w Krakowie i pracuje jako lekarz.", "Gdzie mieszka Tomasz?"),
    ("cs", "Latin", "Moje sestra Jana bydlí v Brně a pracuje jako zdravotní sestra.", "Kde bydlí Jana?"),
    ("vi", "Latin", "Em gái tôi tên là Lan và cô ấy học đại học ở Hà Nội.", "Em gái tôi học đại học ở đâu?"),
    ("tr", "Latin", "Kız kardeşim Ayşe İstanbul'da öğretmen olarak çalışıyor.", "Ayşe nerede çalışıyor?"),
    (
        "id",
        "Latin",
        "Saya tinggal di Bandung dan bekerja sebagai guru bahasa.",
        "Di mana saya bekerja sebagai guru?",
    ),
    ("sw", "Latin", "Dada yangu Amina anaishi Mombasa na anapenda kupika.", "Amina anaishi wapi?"),
    ("ru", "Cyrillic", "Моя сестра Ольга живёт в Новосибирске и работает врачом.", "Где живёт Ольга?"),
    ("uk", "Cyrillic", "Мій брат Андрій працює програмістом у Львові.", "Де працює Андрій?"),
    ("el", "Greek", "Ο αδελφός μου ο Νίκος ζει στη Θεσσαλονίκη με τη γυναίκα του.", "Πού ζει ο Νίκος;"),
    ("ar", "Arabic", "أخي أحمد يعمل مهندسا في القاهرة منذ سنتين.", "أين يعمل أحمد؟"),
    ("fa", "Arabic", "برادرم علی در شیراز پزشک است و دو بچه دارد.", "علی در کدام شهر پزشک است؟"),
    ("ur", "Arabic", "میرا بھائی کراچی میں رہتا ہے اور استاد ہے۔", "میرا بھائی کہاں رہتا ہے؟"),
    ("he", "Hebrew", "אני גר בתל אביב ועובד כמורה בבית ספר יסודי.", "איפה אני גר?"),
    ("hi", "Devanagari", "मैं दिल्ली में रहता हूँ और कल मुंबई जाऊँगा।", "मैं कहाँ रहता हूँ?"),
    ("mr", "Devanagari", "माझी बहीण प्रिया पुण्यात शिक्षिका आहे.", "प्रिया कुठे शिक्षिका आहे?"),
    ("bn", "Bengali", "আমার বোন রিনা কলকাতায় থাকে এবং ডাক্তার হিসেবে কাজ করে।", "রিনা কোথায় থাকে?"),
    ("ta", "Tamil", "என் அண்ணன் ராஜா சென்னையில் வேலை செய்கிறார்.", "ராஜா எங்கே வேலை செய்கிறார்?"),
    ("th", "Thai", "ฉันทำงานเป็นครูที่เชียงใหม่มาห้าปีแล้ว", "ฉันทำงานที่ไหน"),
    ("lo", "Lao", "ຂ້ອຍອາໄສຢູ່ວຽງຈັນ ແລະ ເຮັດວຽກເປັນຄູ.", "ຂ້ອຍອາໄສຢູ່ໃສ?"),
    ("km", "Khmer", "ខ្ញុំរស់នៅភ្នំពេញ ហើយធ្វើការជាគ្រូបង្រៀន។", "ខ្ញុំរស់នៅឯណា?"),
    ("my", "Myanmar", "ကျွန်တော် ရန်ကုန်မှာ နေပြီး ဆရာဝန်အဖြစ် အလုပ်လုပ်ပါတယ်။", "ကျွန်တော် ဘယ်မှာ နေလဲ။"),
    ("ka", "Georgian", "ჩემი ძმა გიორგი თბილისში ცხოვრობს და ექიმად მუშაობს.", "სად ცხოვრობს გიორგი?"),
    ("hy", "Armenian", "Իմ քույրը՝ Անին, ապրում է Երևանում և աշխատում է դպրոցում։", "Որտեղ է ապրում Անին"),
    ("am", "Ethiopic", "እህቴ ሳራ በአዲስ አበባ ትኖራለች እና መምህርት ናት።", "ሳራ የት ትኖራለች?"),
    ("ko", "Hangul", "제 동생 민수는 부산에서 요리사로 일해요.", "민수는 어디에서 일해요?"),
    ("ja", "Kana", "妹は京都の病院で看護師として働いています。", "妹はどこで働いていますか？"),
    ("zh", "Han", "我姐姐在杭州当医生，她每天都很忙。", "我姐姐在哪里当医生？"),
    ("si", "Sinhala", "මගේ අක්කා කොළඹ රෝහලක හෙදියක් ලෙස වැඩ කරයි.", "අක්කා වැඩ කරන්නේ කොහෙද?"),
    ("te", "Telugu", "నా తమ్ముడు రవి హైదరాబాద్ లో ఇంజనీర్ గా పనిచేస్తున్నాడు.", "రవి ఎక్కడ పనిచేస్తున్నాడు?"),
    ("en", "Latin", "My neighbour Sophie teaches piano in Leeds.", "Where does Sophie teach piano?"),
]


def test_no_script_is_read_as_english() -> None:
    """Text whose letters are not Latin is never read by the English rules (which would find no English
    word in it and drop it); its language is named when py3langid knows it."""
    for code, script, statement, _ in STATEMENTS:
        language = detect(statement)
        if script != "Latin":
            assert not language.english, (code, statement)
    assert detect("ฉันทำงานเป็นครู").unspaced and detect("ຂ້ອຍອາໄສຢູ່ວຽງຈັນ").unspaced
    assert detect("ខ្ញុំរស់នៅភ្នំពេញ").unspaced and detect("ကျွန်တော် ရန်ကုန်မှာ နေပြီး").unspaced
    assert not detect("मैं दिल्ली में रहता हूँ").unspaced


async def test_a_statement_in_every_script_is_a_memory_and_is_found(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": statement, "timestamp": "2026-03-10T09:00:00Z"}
        for _, _, statement, _ in STATEMENTS
    ]
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "s1", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories", params={"limit": 100})).json()["memories"]
    missing, unfound = [], []
    for code, _, statement, question in STATEMENTS:
        # Verbatim in every language but English, whose rules summarise ("User's neighbour Sophie…").
        mine = [
            m for m in listed if (m["summary"] == statement if code != "en" else "Sophie" in m["summary"])
        ]
        if len(mine) != 1:
            missing.append(code)
            continue
        found = (await client.post(f"{profile_url}/recall", json={"query": question})).json()
        if mine[0]["id"] not in [c["id"] for c in found["candidates"][:3]]:
            unfound.append(code)
    assert (missing, unfound) == ([], []), "every statement kept verbatim and found by its question"
    assert len({code for code, *_ in STATEMENTS}) >= 30
