import time, tempfile, asyncio
t=time.perf_counter()
from tests.platform.tiny_game import install
install()
from app.main import asgi_app
from app.config import Settings
from app.clock import FakeClock
print("import", time.perf_counter()-t)
from asgi_lifespan import LifespanManager
import httpx
async def main():
    for i in range(3):
        tmp = tempfile.mkdtemp()
        t=time.perf_counter()
        s = Settings(database_url=f"sqlite+aiosqlite:///{tmp}/db.sqlite3", secret_key="x"*40, bot_delay=0, log_level="warning")
        app = asgi_app(s, clock=FakeClock(running=True))
        t1=time.perf_counter()
        async with LifespanManager(app) as m:
            t2=time.perf_counter()
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
                r = await c.get("/api/health"); print(r.status_code)
                t3=time.perf_counter()
                for _ in range(20):
                    r = await c.post("/api/auth/guest", json={"name":"Ana"})
                t4=time.perf_counter()
        t5=time.perf_counter()
        print(f"build {t1-t:.2f} lifespan {t2-t1:.2f} first {t3-t2:.2f} 20 guests {t4-t3:.2f} stop {t5-t4:.2f}")
asyncio.run(main())
